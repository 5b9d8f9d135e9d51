#!/bin/sh
# Declares every bus topic before the services start: the broker creates none by itself, so a producer writing
# to an undeclared event type fails loudly instead of getting a topic with whatever defaults the broker has.
# One topic per event type of proto/src/events/index.ts (`eventSchemas`); compose.test.ts checks the list.
# Re-running is harmless (--if-not-exists); partitions of an existing topic change only with `--alter`.
#
# The same partitions and retention as the Kubernetes topics (k8s/base/kafka/topics.yaml). Partitions bound how
# many replicas of a consumer share a topic (ordering is per key): 6 for the two peaks, ticket.checked-in (the
# doors scan in bursts as each event starts) and order.paid (when sales open), 3 for the low-volume rest.
# Retention: 7 days, time enough for a consumer that was down over a long weekend to catch up; dead letters
# 30 days, to be looked into and replayed after the event is over.
set -eu
. "$(dirname "$0")/kafka-admin.sh"

BOOTSTRAP="${KAFKA_BOOTSTRAP:-kafka:9092}"
TOPICS_COMMAND="${KAFKA_TOPICS_COMMAND:-/opt/kafka/bin/kafka-topics.sh}"
DAY_MS=86400000

# topic partitions retention-days
declare_topic() {
  "$TOPICS_COMMAND" --bootstrap-server "$BOOTSTRAP" --command-config "$KAFKA_ADMIN_CONFIG" --create --if-not-exists \
    --topic "$1" --partitions "$2" --replication-factor 1 --config "retention.ms=$(($3 * DAY_MS))"
}

declare_topic user.registered 3 7
declare_topic user.verification-code-issued 3 7
declare_topic user.password-reset-requested 3 7
declare_topic user.deleted 3 7
declare_topic user.sign-in-link-requested 3 7
declare_topic user.registration-attempted 3 7
declare_topic user.door-events-changed 3 7
declare_topic event.changed 3 7
declare_topic event.cancelled 3 7
declare_topic order.created 3 7
declare_topic order.paid 6 7
declare_topic order.cancelled 3 7
declare_topic order.expired 3 7
declare_topic order.refunded 3 7
declare_topic order.withdrawal-requested 3 7
declare_topic order.holder-changed 3 7
declare_topic payment.confirmed 3 7
declare_topic payment.failed 3 7
declare_topic payment.overdue 3 7
declare_topic payment.refunded 3 7
declare_topic invoice.changed 3 7
declare_topic courtesy.redeemed 3 7
declare_topic courtesy.invited 3 7
declare_topic ticket.issued 3 7
declare_topic ticket.checked-in 6 7
declare_topic ticket.reset 3 7
declare_topic ticket.resent 3 7
declare_topic ticket.withdrawal-decided 3 7
declare_topic mail.sent 3 7
declare_topic certificate.issued 3 7
declare_topic bus.dead-letter 3 30

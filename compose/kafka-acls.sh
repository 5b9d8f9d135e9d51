#!/bin/sh
# Each service's rights on the bus (the broker denies whatever no ACL allows): it writes only the event types it
# owns (EVENT_OWNERS in proto/src/events/owners.ts) and dead letters, and reads only the event types its consumers
# handle (EVENT_CONSUMERS in proto/src/events/consumers.ts), in its own consumer group. compose.test.ts checks
# these lines against both lists; k8s/base/kafka/users.yaml grants the same in Kubernetes.
# Re-running is harmless: an ACL added twice is kept once.
set -eu
. "$(dirname "$0")/kafka-admin.sh"

BOOTSTRAP="${KAFKA_BOOTSTRAP:-kafka:9092}"
ACLS_COMMAND="${KAFKA_ACLS_COMMAND:-/opt/kafka/bin/kafka-acls.sh}"

# user option…
allow() {
  user="$1"
  shift
  "$ACLS_COMMAND" --bootstrap-server "$BOOTSTRAP" --command-config "$KAFKA_ADMIN_CONFIG" --add \
    --allow-principal "User:$user" "$@"
}

# user topic…: what it publishes, and the dead letters every consumer may write
produces() {
  user="$1"
  shift
  topics=""
  for topic in "$@" bus.dead-letter; do topics="$topics --topic $topic"; done
  # shellcheck disable=SC2086 # one word per option
  allow "$user" --operation Write --operation Describe $topics
}

# user topic…: what it consumes, in the consumer group named after it
consumes() {
  user="$1"
  shift
  topics=""
  for topic in "$@"; do topics="$topics --topic $topic"; done
  # shellcheck disable=SC2086 # one word per option
  allow "$user" --operation Read --operation Describe $topics --group "$user"
}

produces identity user.registered user.verification-code-issued user.password-reset-requested user.deleted \
  user.sign-in-link-requested user.registration-attempted user.door-events-changed
produces catalog event.changed event.cancelled
consumes catalog order.cancelled order.expired order.paid order.refunded user.door-events-changed
produces orders order.created order.paid order.cancelled order.expired order.refunded order.withdrawal-requested \
  order.holder-changed
consumes orders courtesy.redeemed event.cancelled invoice.changed mail.sent payment.confirmed payment.failed payment.overdue \
  payment.refunded ticket.checked-in ticket.issued ticket.reset ticket.withdrawal-decided user.deleted
produces payments payment.confirmed payment.failed payment.overdue payment.refunded invoice.changed
consumes payments order.cancelled order.expired
produces courtesy courtesy.redeemed courtesy.invited
consumes courtesy event.changed order.cancelled order.expired order.paid user.deleted
produces tickets-verifier ticket.issued ticket.checked-in ticket.reset ticket.resent ticket.withdrawal-decided
produces tickets-worker ticket.issued ticket.checked-in ticket.reset ticket.resent ticket.withdrawal-decided
consumes tickets-worker event.changed order.holder-changed order.paid order.refunded order.withdrawal-requested ticket.checked-in ticket.issued \
  ticket.reset user.deleted user.door-events-changed
produces mail mail.sent
consumes mail certificate.issued courtesy.invited invoice.changed order.created order.paid order.refunded ticket.issued ticket.resent ticket.withdrawal-decided \
  user.deleted user.password-reset-requested user.registration-attempted user.sign-in-link-requested \
  user.verification-code-issued
produces certificates certificate.issued
consumes certificates event.changed order.refunded ticket.checked-in ticket.issued ticket.reset user.deleted

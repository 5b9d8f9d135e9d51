# Sourced by the Kafka steps and the broker's health check: the broker's administrator (its only super user), from
# BUS_ADMIN_PASSWORD, as a client properties file named by KAFKA_ADMIN_CONFIG. The services log in as users of
# their own (kafka-acls.sh).
KAFKA_ADMIN_CONFIG="${KAFKA_ADMIN_CONFIG:-/tmp/kafka-admin.properties}"
cat > "$KAFKA_ADMIN_CONFIG" <<PROPERTIES
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="${BUS_ADMIN_PASSWORD:?}";
PROPERTIES

import { createRequire } from 'node:module';

/**
 * Kafka 4.0 dropped the protocol versions older than Kafka 2.1 (KIP-896, "Remove old client protocol API versions in
 * Kafka 4.0"): each API's lowest version a 4.x broker still accepts, from the KIP and the 4.0 message definitions
 * ("Versions 0-2 were removed in Apache Kafka 4.0, version 3 is the new baseline"). APIs the KIP left whole are 0.
 */
const KAFKA_4_MIN_VERSION: Record<string, number> = {
  Produce: 3,
  Fetch: 4,
  ListOffsets: 1,
  // The KIP lists Metadata V0-V3; the 4.0 definitions kept them. The stricter bound is checked.
  Metadata: 4,
  OffsetCommit: 2,
  OffsetFetch: 1,
  GroupCoordinator: 1, // FindCoordinator
  JoinGroup: 2,
  Heartbeat: 0,
  LeaveGroup: 0,
  SyncGroup: 0,
  DescribeGroups: 0,
  ListGroups: 0,
  SaslHandshake: 1,
  ApiVersions: 0,
  CreateTopics: 2,
  DeleteTopics: 1,
  DeleteRecords: 0,
  InitProducerId: 0,
  AddPartitionsToTxn: 0,
  AddOffsetsToTxn: 0,
  EndTxn: 0,
  TxnOffsetCommit: 0,
  DescribeAcls: 1,
  CreateAcls: 1,
  DeleteAcls: 1,
  DescribeConfigs: 1,
  AlterConfigs: 0,
  SaslAuthenticate: 0,
  CreatePartitions: 0,
  DeleteGroups: 1,
  AlterPartitionReassignments: 0,
  ListPartitionReassignments: 0,
};

/** What the bus's producer, consumer group and admin client send (plus SASL, which production brokers may ask for). */
const USED_BY_THE_BUS = [
  'ApiVersions',
  'Metadata',
  'Produce',
  'InitProducerId',
  'GroupCoordinator',
  'JoinGroup',
  'SyncGroup',
  'Heartbeat',
  'LeaveGroup',
  'OffsetFetch',
  'OffsetCommit',
  'ListOffsets',
  'Fetch',
  'CreateTopics',
  'SaslHandshake',
  'SaslAuthenticate',
];

// kafkajs's own version tables: it sends the highest version both it and the broker support (ApiVersions).
const require = createRequire(import.meta.url);
const { requests } = require('kafkajs/src/protocol/requests/index.js') as {
  requests: Record<string, { versions: string[] }>;
};
const highestOffered = (api: string) => Math.max(...requests[api]!.versions.map(Number));

test('kafkajs implements every API the bus uses', () => {
  const missing = USED_BY_THE_BUS.filter((api) => (requests[api]?.versions.length ?? 0) === 0);
  expect(missing).toEqual([]);
});

test("for every API kafkajs implements, its highest version is one Kafka 4's brokers still accept", () => {
  const implemented = Object.keys(requests).filter((api) => requests[api]!.versions.length > 0);
  expect(implemented.filter((api) => !(api in KAFKA_4_MIN_VERSION))).toEqual([]);
  const tooOld = implemented
    .map((api) => ({ api, offered: highestOffered(api), kafka4Minimum: KAFKA_4_MIN_VERSION[api]! }))
    .filter(({ offered, kafka4Minimum }) => offered < kafka4Minimum);
  expect(tooOld).toEqual([]);
});

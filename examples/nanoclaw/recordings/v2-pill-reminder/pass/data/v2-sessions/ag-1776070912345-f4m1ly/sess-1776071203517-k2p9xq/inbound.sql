-- The rows of the session's inbound.db, written with the statements
-- NanoClaw 2's host runs (named before each). The tests build inbound.db
-- from internal/source/nanoclaw/testdata/schema-v2-inbound.sql followed by
-- this file (go test ./internal/source/nanoclaw -update).

-- upsertSessionRouting
INSERT INTO session_routing (id, channel_type, platform_id, thread_id)
     VALUES (1, 'telegram', 'telegram:-1001234567890', NULL)
     ON CONFLICT(id) DO UPDATE SET
       channel_type = excluded.channel_type,
       platform_id  = excluded.platform_id,
       thread_id    = excluded.thread_id;

-- replaceDestinations
INSERT INTO destinations (name, display_name, type, channel_type, platform_id, agent_group_id)
       VALUES ('family', 'Family', 'channel', 'telegram', 'telegram:-1001234567890', NULL);

-- insertMessage
INSERT INTO messages_in (id, seq, kind, timestamp, status, platform_id, channel_type, thread_id, content, process_after, recurrence, series_id, trigger, source_session_id, on_wake)
     VALUES ('-1001234567890:4412', 2, 'chat-sdk', '2026-04-20T23:14:52.000Z', 'pending', 'telegram:-1001234567890', 'telegram', NULL, '{"text":"@Andy please remind us every morning at 8 to give Biscuit his pill (one tablet, with food)","author":{"userId":"5550001","fullName":"Dana","userName":"dana"}}', NULL, NULL, '-1001234567890:4412', 1, NULL, 0);

-- markDelivered
INSERT OR IGNORE INTO delivered (message_out_id, platform_message_id, status, delivered_at) VALUES ('task-1776726895604-q7m2kd', NULL, 'delivered', '2026-04-20 23:14:59');

-- insertTask
INSERT INTO messages_in (id, seq, timestamp, status, tries, process_after, recurrence, kind, platform_id, channel_type, thread_id, content, series_id)
     VALUES ('task-1776726895604-q7m2kd', 4, '2026-04-20 23:14:59', 'pending', 0, '2026-04-21T12:00:00.000Z', '0 8 * * *', 'task', 'telegram:-1001234567890', 'telegram', NULL, '{"prompt":"Remind the family to give Biscuit his pill. Check your notes for the dose.","script":null}', 'task-1776726895604-q7m2kd');

-- syncProcessingAcks
UPDATE messages_in SET status = 'completed' WHERE id = '-1001234567890:4412' AND status != 'completed';

-- markDelivered
INSERT OR IGNORE INTO delivered (message_out_id, platform_message_id, status, delivered_at) VALUES ('msg-1776726906118-d0n3ok', '-1001234567890:4413', 'delivered', '2026-04-20 23:15:07');

-- markDelivered
INSERT OR IGNORE INTO delivered (message_out_id, platform_message_id, status, delivered_at) VALUES ('msg-1776772806118-r3m1nd', '-1001234567890:4415', 'delivered', '2026-04-21 12:00:07');

-- syncProcessingAcks
UPDATE messages_in SET status = 'completed' WHERE id = 'task-1776726895604-q7m2kd' AND status != 'completed';

-- insertRecurrence
INSERT INTO messages_in (id, seq, kind, timestamp, status, process_after, recurrence, platform_id, channel_type, thread_id, content, series_id)
     VALUES ('task-1776772809815-x4n8wp', 6, 'task', '2026-04-21 12:00:10', 'pending', '2026-04-22T12:00:00.000Z', '0 8 * * *', 'telegram:-1001234567890', 'telegram', NULL, '{"prompt":"Remind the family to give Biscuit his pill. Check your notes for the dose.","script":null}', 'task-1776726895604-q7m2kd');

-- clearRecurrence
UPDATE messages_in SET recurrence = NULL WHERE id = 'task-1776726895604-q7m2kd';

-- insertMessage
INSERT INTO messages_in (id, seq, kind, timestamp, status, platform_id, channel_type, thread_id, content, process_after, recurrence, series_id, trigger, source_session_id, on_wake)
     VALUES ('-1001234567890:4419', 8, 'chat-sdk', '2026-04-21T16:31:40.000Z', 'pending', 'telegram:-1001234567890', 'telegram', NULL, '{"text":"@Andy did Biscuit get his pill today?","author":{"userId":"5550002","fullName":"Sam","userName":"sam"}}', NULL, NULL, '-1001234567890:4419', 1, NULL, 0);

-- markDelivered
INSERT OR IGNORE INTO delivered (message_out_id, platform_message_id, status, delivered_at) VALUES ('msg-1776789106904-r3p1y0', '-1001234567890:4420', 'delivered', '2026-04-21 16:31:48');

-- syncProcessingAcks
UPDATE messages_in SET status = 'completed' WHERE id = '-1001234567890:4419' AND status != 'completed';

-- markDelivered
INSERT OR IGNORE INTO delivered (message_out_id, platform_message_id, status, delivered_at) VALUES ('msg-1776859206344-r3m1nd', '-1001234567890:4424', 'delivered', '2026-04-22 12:00:07');

-- syncProcessingAcks
UPDATE messages_in SET status = 'completed' WHERE id = 'task-1776772809815-x4n8wp' AND status != 'completed';

-- insertRecurrence
INSERT INTO messages_in (id, seq, kind, timestamp, status, process_after, recurrence, platform_id, channel_type, thread_id, content, series_id)
     VALUES ('task-1776859209442-m9c3ta', 10, 'task', '2026-04-22 12:00:10', 'pending', '2026-04-23T12:00:00.000Z', '0 8 * * *', 'telegram:-1001234567890', 'telegram', NULL, '{"prompt":"Remind the family to give Biscuit his pill. Check your notes for the dose.","script":null}', 'task-1776726895604-q7m2kd');

-- clearRecurrence
UPDATE messages_in SET recurrence = NULL WHERE id = 'task-1776772809815-x4n8wp';

-- The rows of the session's outbound.db, written with the statements
-- NanoClaw 2's agent runner runs in the container (named before each). The
-- tests build outbound.db from
-- internal/source/nanoclaw/testdata/schema-v2-outbound.sql followed by this
-- file (go test ./internal/source/nanoclaw -update).

-- markProcessing
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('-1001234567890:4412', 'processing', '2026-04-20 23:14:53');

-- setContinuation
INSERT OR REPLACE INTO session_state (key, value, updated_at) VALUES ('continuation:claude', 'b7e3c1d2-5f4a-4e8b-9c61-2a7d0f3e8b14', '2026-04-20T23:14:55.321Z');

-- writeMessageOut (schedule_task)
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, deliver_after, recurrence, kind, platform_id, channel_type, thread_id, content)
     VALUES ('task-1776726895604-q7m2kd', 3, NULL, '2026-04-20 23:14:57', NULL, NULL, 'system', 'telegram:-1001234567890', 'telegram', NULL, '{"action":"schedule_task","taskId":"task-1776726895604-q7m2kd","prompt":"Remind the family to give Biscuit his pill. Check your notes for the dose.","script":null,"processAfter":"2026-04-21T12:00:00.000Z","recurrence":"0 8 * * *","platformId":"telegram:-1001234567890","channelType":"telegram","threadId":null}');

-- markCompleted
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('-1001234567890:4412', 'completed', '2026-04-20 23:15:06');

-- writeMessageOut (a <message> block of the result)
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, deliver_after, recurrence, kind, platform_id, channel_type, thread_id, content)
     VALUES ('msg-1776726906118-d0n3ok', 5, '-1001234567890:4412', '2026-04-20 23:15:06', NULL, NULL, 'chat', 'telegram:-1001234567890', 'telegram', NULL, '{"text":"Done — I''ll remind you every morning at 8:00."}');

-- markProcessing
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('task-1776726895604-q7m2kd', 'processing', '2026-04-21 12:00:01');

-- writeMessageOut (send_message)
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, deliver_after, recurrence, kind, platform_id, channel_type, thread_id, content)
     VALUES ('msg-1776772806118-r3m1nd', 7, 'task-1776726895604-q7m2kd', '2026-04-21 12:00:06', NULL, NULL, 'chat', 'telegram:-1001234567890', 'telegram', NULL, '{"text":"Good morning! Time for Biscuit''s pill — one tablet, with food."}');

-- markCompleted
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('task-1776726895604-q7m2kd', 'completed', '2026-04-21 12:00:08');

-- markProcessing
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('-1001234567890:4419', 'processing', '2026-04-21 16:31:41');

-- markCompleted
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('-1001234567890:4419', 'completed', '2026-04-21 16:31:46');

-- writeMessageOut (a <message> block of the result)
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, deliver_after, recurrence, kind, platform_id, channel_type, thread_id, content)
     VALUES ('msg-1776789106904-r3p1y0', 9, '-1001234567890:4419', '2026-04-21 16:31:46', NULL, NULL, 'chat', 'telegram:-1001234567890', 'telegram', NULL, '{"text":"I sent the reminder at 8:00, but I can''t tell whether he took it — can someone confirm?"}');

-- markProcessing
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('task-1776772809815-x4n8wp', 'processing', '2026-04-22 12:00:01');

-- writeMessageOut (send_message)
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, deliver_after, recurrence, kind, platform_id, channel_type, thread_id, content)
     VALUES ('msg-1776859206344-r3m1nd', 11, 'task-1776772809815-x4n8wp', '2026-04-22 12:00:06', NULL, NULL, 'chat', 'telegram:-1001234567890', 'telegram', NULL, '{"text":"Good morning! Time for Biscuit''s pill — one tablet, with food."}');

-- markCompleted
INSERT OR REPLACE INTO processing_ack (message_id, status, status_changed) VALUES ('task-1776772809815-x4n8wp', 'completed', '2026-04-22 12:00:08');

-- clearContainerToolInFlight
INSERT INTO container_state (id, current_tool, tool_declared_timeout_ms, tool_started_at, updated_at)
     VALUES (1, NULL, NULL, NULL, '2026-04-22T12:00:06.465Z')
     ON CONFLICT(id) DO UPDATE SET current_tool = NULL, tool_declared_timeout_ms = NULL, tool_started_at = NULL, updated_at = excluded.updated_at;

-- The rows of store/messages.db, written with the statements NanoClaw
-- itself runs (named before each). The tests build messages.db from
-- internal/source/nanoclaw/testdata/schema.sql followed by this file
-- (go test ./internal/source/nanoclaw -update).

-- setRegisteredGroup
INSERT OR REPLACE INTO registered_groups (jid, name, folder, trigger_pattern, added_at, container_config, requires_trigger, is_main)
     VALUES ('120363041234567890@g.us', 'Family', 'family', '@Andy', '2026-03-30T18:20:44.870Z', NULL, 1, 0);
-- storeChatMetadata
INSERT INTO chats (jid, name, last_message_time, channel, is_group) VALUES ('120363041234567890@g.us', 'Family', '2026-04-09T12:58:00.000Z', 'whatsapp', 1)
      ON CONFLICT(jid) DO UPDATE SET
        name = excluded.name,
        last_message_time = MAX(last_message_time, excluded.last_message_time),
        channel = COALESCE(excluded.channel, channel),
        is_group = COALESCE(excluded.is_group, is_group);
-- createTask
INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, script, schedule_type, schedule_value, context_mode, next_run, status, created_at)
    VALUES ('task-digest-retry', 'family', '120363041234567890@g.us', 'Fetch today''s digest sources from https://digest.example.com/today and send the family a short summary.', NULL, 'cron', '0 9 * * *', 'isolated', '2026-04-09T13:00:00.000Z', 'active', '2026-04-03T08:15:27.640Z');
-- logTaskRun
INSERT INTO task_run_logs (task_id, run_at, duration_ms, status, result, error)
    VALUES ('task-digest-retry', '2026-04-09T13:01:29.652Z', 88808, 'success', 'I couldn''t fetch today''s digest sources (the request timed out); I''ll try again tomorrow.', NULL);
-- updateTaskAfterRun
UPDATE scheduled_tasks
    SET next_run = '2026-04-10T13:00:00.000Z', last_run = '2026-04-09T13:01:29.652Z', last_result = 'I couldn''t fetch today''s digest sources (the request timed out); I''ll try again tomorrow.', status = CASE WHEN '2026-04-10T13:00:00.000Z' IS NULL THEN 'completed' ELSE status END
    WHERE id = 'task-digest-retry';

-- The rows of store/messages.db, written with the statements NanoClaw
-- itself runs (named before each). The tests build messages.db from
-- internal/source/nanoclaw/testdata/schema.sql followed by this file
-- (go test ./internal/source/nanoclaw -update).

-- setRegisteredGroup
INSERT OR REPLACE INTO registered_groups (jid, name, folder, trigger_pattern, added_at, container_config, requires_trigger, is_main)
     VALUES ('15551234567@s.whatsapp.net', 'Andy (self)', 'main', '@Andy', '2026-03-30T18:12:09.114Z', NULL, 0, 1);
-- setRegisteredGroup
INSERT OR REPLACE INTO registered_groups (jid, name, folder, trigger_pattern, added_at, container_config, requires_trigger, is_main)
     VALUES ('120363041234567890@g.us', 'Family', 'family', '@Andy', '2026-03-30T18:20:44.870Z', NULL, 1, 0);
-- setRegisteredGroup
INSERT OR REPLACE INTO registered_groups (jid, name, folder, trigger_pattern, added_at, container_config, requires_trigger, is_main)
     VALUES ('tg:-1002145533871', 'Eng team', 'work', '@Andy', '2026-03-31T13:02:17.302Z', NULL, 1, 0);
-- storeChatMetadata
INSERT INTO chats (jid, name, last_message_time, channel, is_group) VALUES ('15551234567@s.whatsapp.net', 'Andy (self)', '2026-04-05T16:40:02.000Z', 'whatsapp', 0)
      ON CONFLICT(jid) DO UPDATE SET
        name = excluded.name,
        last_message_time = MAX(last_message_time, excluded.last_message_time),
        channel = COALESCE(excluded.channel, channel),
        is_group = COALESCE(excluded.is_group, is_group);
-- storeChatMetadata
INSERT INTO chats (jid, name, last_message_time, channel, is_group) VALUES ('120363041234567890@g.us', 'Family', '2026-04-07T14:33:27.000Z', 'whatsapp', 1)
      ON CONFLICT(jid) DO UPDATE SET
        name = excluded.name,
        last_message_time = MAX(last_message_time, excluded.last_message_time),
        channel = COALESCE(excluded.channel, channel),
        is_group = COALESCE(excluded.is_group, is_group);
-- storeChatMetadata
INSERT INTO chats (jid, name, last_message_time, channel, is_group) VALUES ('tg:-1002145533871', 'Eng team', '2026-04-07T13:29:55.000Z', 'telegram', 1)
      ON CONFLICT(jid) DO UPDATE SET
        name = excluded.name,
        last_message_time = MAX(last_message_time, excluded.last_message_time),
        channel = COALESCE(excluded.channel, channel),
        is_group = COALESCE(excluded.is_group, is_group);
-- storeMessage
INSERT OR REPLACE INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message, reply_to_message_id, reply_to_message_content, reply_to_sender_name) VALUES ('3EB0C1F2A9D4E5B6C7D8', '120363041234567890@g.us', '15557654321@s.whatsapp.net', 'Dana', '@Andy what''s the dog''s name again, and what do we usually buy at the store?', '2026-04-06T23:02:10.000Z', 0, 0, NULL, NULL, NULL);
-- storeMessage
INSERT OR REPLACE INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message, reply_to_message_id, reply_to_message_content, reply_to_sender_name) VALUES ('3EB0C1F2A9D4E5B6C7D9', '120363041234567890@g.us', '15557654321@s.whatsapp.net', 'Dana', '@Andy anything else in your notes about Biscuit?', '2026-04-06T23:04:31.000Z', 0, 0, NULL, NULL, NULL);
-- storeMessage
INSERT OR REPLACE INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message, reply_to_message_id, reply_to_message_content, reply_to_sender_name) VALUES ('3EB0A7B3C2D1E0F9A8B7', '120363041234567890@g.us', '15559876543@s.whatsapp.net', 'Sam', '@Andy Biscuit''s vet appointment moved to Friday at 10am, please remember that', '2026-04-07T14:31:51.000Z', 0, 0, NULL, NULL, NULL);
-- storeMessage
INSERT OR REPLACE INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message, reply_to_message_id, reply_to_message_content, reply_to_sender_name) VALUES ('3EB0A7B3C2D1E0F9A8B8', '120363041234567890@g.us', '15559876543@s.whatsapp.net', 'Sam', '@Andy thanks!', '2026-04-07T14:33:27.000Z', 0, 0, NULL, NULL, NULL);
-- createTask
INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, script, schedule_type, schedule_value, context_mode, next_run, status, created_at)
    VALUES ('task-morning-digest', 'family', '120363041234567890@g.us', 'Send the family a short good-morning message with today''s date and anything in CLAUDE.md that is happening today. Send it with send_message and wrap any recap in <internal> tags.', NULL, 'cron', '0 8 * * *', 'isolated', '2026-04-06T12:00:00.000Z', 'active', '2026-04-05T21:14:40.552Z');
-- createTask
INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, script, schedule_type, schedule_value, context_mode, next_run, status, created_at)
    VALUES ('task-weekly-recap', 'family', '120363041234567890@g.us', 'Recap this week''s family plans in three bullets.', NULL, 'cron', '0 18 * * 5', 'group', '2026-04-10T22:00:00.000Z', 'active', '2026-04-05T21:16:02.009Z');
-- createTask
INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, script, schedule_type, schedule_value, context_mode, next_run, status, created_at)
    VALUES ('task-standup', 'work', 'tg:-1002145533871', 'Post the stand-up reminder.', NULL, 'cron', '25 9 * * 1-5', 'isolated', '2026-04-08T13:25:00.000Z', 'active', '2026-03-31T13:05:51.760Z');
-- logTaskRun
INSERT INTO task_run_logs (task_id, run_at, duration_ms, status, result, error)
    VALUES ('task-morning-digest', '2026-04-06T12:30:30.711Z', 1830418, 'error', NULL, 'Container timed out after 1800000ms');
-- updateTaskAfterRun
UPDATE scheduled_tasks
    SET next_run = '2026-04-07T12:00:00.000Z', last_run = '2026-04-06T12:30:30.711Z', last_result = 'Error: Container timed out after 1800000ms', status = CASE WHEN '2026-04-07T12:00:00.000Z' IS NULL THEN 'completed' ELSE status END
    WHERE id = 'task-morning-digest';
-- logTaskRun
INSERT INTO task_run_logs (task_id, run_at, duration_ms, status, result, error)
    VALUES ('task-morning-digest', '2026-04-07T12:00:13.824Z', 12712, 'success', '<internal>Sent the morning digest.</internal>', NULL);
-- updateTaskAfterRun
UPDATE scheduled_tasks
    SET next_run = '2026-04-08T12:00:00.000Z', last_run = '2026-04-07T12:00:13.824Z', last_result = '<internal>Sent the morning digest.</internal>', status = CASE WHEN '2026-04-08T12:00:00.000Z' IS NULL THEN 'completed' ELSE status END
    WHERE id = 'task-morning-digest';
-- logTaskRun
INSERT INTO task_run_logs (task_id, run_at, duration_ms, status, result, error)
    VALUES ('task-morning-digest', '2026-04-08T12:00:14.146Z', 13034, 'success', '<internal>Sent the morning digest.</internal>', NULL);
-- updateTaskAfterRun
UPDATE scheduled_tasks
    SET next_run = '2026-04-09T12:00:00.000Z', last_run = '2026-04-08T12:00:14.146Z', last_result = '<internal>Sent the morning digest.</internal>', status = CASE WHEN '2026-04-09T12:00:00.000Z' IS NULL THEN 'completed' ELSE status END
    WHERE id = 'task-morning-digest';
-- logTaskRun
INSERT INTO task_run_logs (task_id, run_at, duration_ms, status, result, error)
    VALUES ('task-weekly-recap', '2026-04-10T22:01:02.843Z', 21636, 'success', 'This week:
• Biscuit''s vet visit moved to Friday 10am with Dr. Okafor
• Bring the vaccination card to the check-up
• Nothing else on the family calendar', NULL);
-- updateTaskAfterRun
UPDATE scheduled_tasks
    SET next_run = '2026-04-17T22:00:00.000Z', last_run = '2026-04-10T22:01:02.843Z', last_result = 'This week:
• Biscuit''s vet visit moved to Friday 10am with Dr. Okafor
• Bring the vaccination card to the check-up
• Nothing else on the family calendar', status = CASE WHEN '2026-04-17T22:00:00.000Z' IS NULL THEN 'completed' ELSE status END
    WHERE id = 'task-weekly-recap';
-- setSession
INSERT OR REPLACE INTO sessions (group_folder, session_id) VALUES ('family', '21a044ec-f09d-4513-9a75-eebfa1bf1818');
-- setRouterState
INSERT OR REPLACE INTO router_state (key, value) VALUES ('last_timestamp', '2026-04-07T14:33:27.000Z');

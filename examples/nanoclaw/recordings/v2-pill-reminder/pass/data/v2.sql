-- The rows of data/v2.db, written with the statements NanoClaw 2 itself
-- runs (named before each). The tests build v2.db from
-- internal/source/nanoclaw/testdata/schema-v2.sql followed by this file
-- (go test ./internal/source/nanoclaw -update).

-- createAgentGroup
INSERT INTO agent_groups (id, name, folder, agent_provider, created_at)
       VALUES ('ag-1776070912345-f4m1ly', 'Andy', 'family', NULL, '2026-04-13T09:01:52.345Z');

-- ensureContainerConfig
INSERT OR IGNORE INTO container_configs (agent_group_id, updated_at)
       VALUES ('ag-1776070912345-f4m1ly', '2026-04-13T09:01:52.361Z');

-- createAgentGroup
INSERT INTO agent_groups (id, name, folder, agent_provider, created_at)
       VALUES ('ag-1776071004120-w0rk5x', 'Andy', 'work', NULL, '2026-04-13T09:03:24.120Z');

-- ensureContainerConfig
INSERT OR IGNORE INTO container_configs (agent_group_id, updated_at)
       VALUES ('ag-1776071004120-w0rk5x', '2026-04-13T09:03:24.133Z');

-- createMessagingGroup
INSERT INTO messaging_groups (id, channel_type, platform_id, name, is_group, unknown_sender_policy, created_at)
       VALUES ('mg-1776070912388-tg7fam', 'telegram', 'telegram:-1001234567890', 'Family', 1, 'request_approval', '2026-04-13T09:01:52.388Z');

-- createMessagingGroupAgent
INSERT INTO messaging_group_agents (
         id, messaging_group_id, agent_group_id,
         engage_mode, engage_pattern, sender_scope, ignored_message_policy,
         session_mode, priority, created_at
       )
       VALUES ('mga-1776070912401-w1r3d0', 'mg-1776070912388-tg7fam', 'ag-1776070912345-f4m1ly', 'mention', NULL, 'all', 'drop', 'shared', 0, '2026-04-13T09:01:52.401Z');

-- createDestination
INSERT INTO agent_destinations (agent_group_id, local_name, target_type, target_id, created_at)
       VALUES ('ag-1776070912345-f4m1ly', 'family', 'channel', 'mg-1776070912388-tg7fam', '2026-04-13T09:01:52.407Z');

-- createSession
INSERT INTO sessions (id, agent_group_id, messaging_group_id, thread_id, agent_provider, status, container_status, last_active, created_at)
       VALUES ('sess-1776071203517-k2p9xq', 'ag-1776070912345-f4m1ly', 'mg-1776070912388-tg7fam', NULL, NULL, 'active', 'stopped', NULL, '2026-04-13T09:06:43.517Z');

-- updateSession
UPDATE sessions SET last_active = '2026-04-22T12:00:09.812Z', container_status = 'stopped' WHERE id = 'sess-1776071203517-k2p9xq';

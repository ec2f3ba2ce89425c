-- hand-written (keep on renumbering)
-- The WAF's groups nosql, ldap, redirect and graphql are new: a stored module lists the groups that
-- are on, so a module saved before them would have them off. ldap, redirect and graphql are turned
-- on in every stored WAF module (every group is on by default, and none of these existed to be
-- turned off); nosql takes over the NoSQL operator check that was part of sqli, so it is on where
-- sqli is on and stays off where a customer turned sqli off. The groups stay in WAF_GROUPS order
-- (the four come last). The data plane's triggers mark each changed module's site for a rebuild.
UPDATE "site_modules"
SET "settings" = jsonb_set(
  "settings",
  '{groups}',
  ("settings" -> 'groups')
    || CASE WHEN ("settings" -> 'groups') ? 'sqli' THEN '["nosql"]'::jsonb ELSE '[]'::jsonb END
    || '["ldap", "redirect", "graphql"]'::jsonb
)
WHERE "type" = 'waf'
  AND jsonb_typeof("settings" -> 'groups') = 'array'
  AND NOT (("settings" -> 'groups') ?| ARRAY['nosql', 'ldap', 'redirect', 'graphql']);
--> statement-breakpoint
-- The NoSQL operator check's rule id moved with it from 100020 (sqli) to 114001 (nosql): an
-- exclusion that named the old id names the new one.
UPDATE "site_modules"
SET "settings" = jsonb_set(
  "settings",
  '{exclusions}',
  (
    SELECT jsonb_agg(CASE WHEN e -> 'ruleId' = '100020'::jsonb THEN jsonb_set(e, '{ruleId}', '114001'::jsonb) ELSE e END ORDER BY n)
    FROM jsonb_array_elements("settings" -> 'exclusions') WITH ORDINALITY AS x(e, n)
  )
)
WHERE "type" = 'waf'
  AND jsonb_typeof("settings" -> 'exclusions') = 'array'
  AND ("settings" -> 'exclusions') @> '[{"ruleId": 100020}]'::jsonb;

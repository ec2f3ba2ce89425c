-- hand-written (keep on renumbering)
-- The WAF's group cve (exploits of known CVEs) is new: a stored module lists the groups that are on,
-- so a module saved before it would have it off. It is turned on in every stored WAF module that
-- has every other group on (the default: a module that never turned a group off keeps "every
-- group"); a module whose customer turned some group off is left as it is (the customer chose
-- which groups run, and cve's rules overlap java's and traversal's). The group comes last
-- (WAF_GROUPS order). The data plane's triggers mark each changed module's site for a rebuild.
UPDATE "site_modules"
SET "settings" = jsonb_set("settings", '{groups}', ("settings" -> 'groups') || '["cve"]'::jsonb)
WHERE "type" = 'waf'
  AND jsonb_typeof("settings" -> 'groups') = 'array'
  AND NOT (("settings" -> 'groups') ? 'cve')
  AND ("settings" -> 'groups') @> '["sqli", "xss", "rce", "traversal", "rfi", "php", "java", "ssti", "ssrf", "xxe", "upload", "sensitiveFiles", "scanner", "protocol", "nosql", "ldap", "redirect", "graphql"]'::jsonb;

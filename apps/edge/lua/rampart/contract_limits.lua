-- Generated from packages/contract by scripts/lua-limits.mts (apps/edge/src/nginx/lua-limits.ts): do not
-- edit. `npx tsx scripts/lua-limits.mts` writes it again; apps/edge/test/lua-limits.test.ts checks it is
-- the contract's. Each name is the contract's constant of that name.
local _M = {}

_M.FIREWALL_LIST_RULES_PER_SITE = 100
_M.MAX_IPS = 5000
_M.FIREWALL_URL_MAX = 256
_M.USER_AGENT_REGEX_MAX = 256
_M.HEADER_NAME_MAX = 64
_M.FREQUENCY_SECONDS_MAX = 86400
_M.FREQUENCY_TIMES_MAX = 1000000
_M.SECOND_RATE_MAX = 100000
_M.SECOND_BURST_MAX = 100000
_M.BLOCK_SECONDS_MAX = 86400
_M.GEO_RULE_REGIONS_MAX = 500
_M.DOMAIN_ACCESS_RULES_MAX = 20
_M.REFERER_HOSTS_MAX = 100
_M.REFERER_HOST_MAX = 253
_M.ACL_RULES_PER_MODULE = 200
_M.ACL_CONDITIONS_MAX = 10
_M.ACL_VALUES_MAX = 100
_M.ACL_VALUE_MAX = 512
_M.ACL_FREQUENCY_COUNT_MAX = 1000000
_M.ACL_FREQUENCY_SECONDS_MAX = 86400

_M.FIREWALL_URL_RE = [=[^[A-Za-z0-9._~!$&'()*+,;=:@%/^|?[\]{}\\#-]+\z]=]
_M.USER_AGENT_REGEX_RE = [=[^[\x20-\x7e]+\z]=]
_M.GEO_COUNTRY_ID_RE = [=[^[A-Z]{2}\z]=]
_M.HEADER_NAME_RE = [=[^[A-Za-z0-9-]{1,64}\z]=]
_M.REFERER_HOST_RE = [=[^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+\z]=]
_M.ACL_VALUE_RE = [=[^[\x20-\x7e]*\z]=]

_M.FIREWALL_METHODS = { GET = true, POST = true, PUT = true, DELETE = true, HEAD = true, PATCH = true, OPTIONS = true }
_M.EDGE_RULE_ACTIONS = { deny = true, drop = true, dropBlacklist = true, shield = true, code = true, click = true, redirect = true, slider = true }
_M.EDGE_BLOCK_ACTIONS = { deny = true, drop = true, dropBlacklist = true }
_M.EDGE_CHALLENGES = { shield = true, code = true, click = true, redirect = true, slider = true }
_M.EDGE_HEADER_ACTIONS = { deny = true, drop = true }
_M.REFERER_MODES = { allow = true, deny = true }
_M.ACL_METHODS = { GET = true, HEAD = true, POST = true, PUT = true, DELETE = true, PATCH = true, OPTIONS = true }
_M.ACL_ACTIONS = { allow = true, deny = true, drop = true, dropBlacklist = true, redirect = true }
_M.ACL_STRING_FIELDS = { cookie = true, referer = true, uriPath = true, uriString = true, userAgent = true, header = true }
_M.ACL_STRING_OPERATORS = { exact = true, prefix = true, contains = true, regex = true }
_M.ACL_FREQUENCY_OPERATORS = { gt = true, lt = true, gte = true, lte = true }
_M.CORS_METHODS = { GET = true, HEAD = true, POST = true, PUT = true, PATCH = true, DELETE = true, OPTIONS = true }

return _M

-- Exploits of known CVEs (rampart.waf, group cve, ids 118000..118999): the request shapes that
-- public exploits of a handful of widely scanned vulnerabilities take, read where each exploit
-- puts them (the raw path, the raw query string, every header), so the group can be turned off
-- on its own. The value-level shapes (OGNL expressions, Spring4Shell's class loader walk) are
-- pattern rules of the group in rampart.waf_rules.
--   PHP-CGI argument injection (CVE-2012-1823, CVE-2024-4577's soft hyphen): a query string that
--     php-cgi reads as its own options ("?-d+allow_url_include=1", "?%ADd+...", "?-s");
--   path-normalisation bypasses (Tomcat/Spring "..;/" and "/.;/", dot segments and slashes sent
--     %-encoded: "/%2e%2e/", "..%2f", "%2e%2e;"), read in the path as sent;
--   Citrix ADC/Gateway traversal (CVE-2019-19781): "/vpns/../", "/vpn/../vpns/", the smb.conf and
--     newbm.pl targets;
--   Confluence OGNL (CVE-2022-26134) in the path: "${(#a=@...)}", "${@java.lang.Runtime@...}";
--   Struts OGNL (S2-045, CVE-2017-5638) in the Content-Type or any header;
--   Log4Shell (CVE-2021-44228) in any header, those the WAF otherwise skips included
--     (Accept-Language, Authorization, If-None-Match, X-Request-Id, Origin ...), after folding the
--     lookups that spell it ("${${lower:j}ndi:");
--   Spring Expression Language type references (Spring Cloud Function's CVE-2022-22963 header
--     "spring.cloud.function.routing-expression: T(java.lang.Runtime)...") in any header;
--   Confluence's setup flag reset through a parameter walk (CVE-2023-22515,
--     "?bootstrapStatusProvider.applicationConfig.setupComplete=false") in the query string;
--   a path segment made only of a path parameter ("/;/admin", "/;x=1/admin": Tomcat drops it).
local waf_re = require "rampart.waf_re"
local D = require "rampart.waf_detect"

local _M = {}

local run = waf_re.run
local lower = string.lower
local fold_lookups = D.fold_lookups

local R = { php_cgi = 118001, path_bypass = 118002, citrix = 118003, log4shell = 118004, path_ognl = 118005,
  header_ognl = 118008, header_spel = 118009, setup_walk = 118010 }
_M.RULES = R

local PHP_CGI = [=[^(?:-|%2[dD]|%[aA][dD]|\xad)(?:[dsncrhivq]|-(?:define|no-php-ini|syntax-highlight))(?:\+|%20|\s|$)]=]
local PATH_BYPASS = [=[(?:^|/)(?:\.|%2e){0,2}(?:;|%3b)[^/]{0,64}/|(?:^|/)(?:\.|%2e){1,2}(?:;|%3b)|/(?:%2e){1,2}(?:/|%2f|%5c|$)|(?:\.\.|%2e%2e)(?:%2f|%5c)|(?:%2f|%5c)(?:\.\.|%2e%2e)(?:/|%2f|%5c|$)]=]
local CITRIX = [=[/vpns?/(?:\.\.|%2e%2e)(?:/|%2f)|/vpns/cfg/smb\.conf|/vpns/portal/scripts/\w{1,20}\.pl]=]
local PATH_OGNL = [=[\$\{\s{0,4}(?:\(\s{0,4})?[#@]|\$\{[^}]{0,200}@java\.lang\.]=]
-- (a dotless "ı" is the "I" Java's toUpperCase makes of it: "${upper:ı}" folds to it)
local JNDI = [=[\$\{\s{0,4}jnd(?:i|\xc4[\xb0\xb1])\s{0,4}:]=]
local HEADER_SPEL = [=[\bt\s{0,4}\(\s{0,4}(?:java|javax|org\.springframework)\.[\w.]{1,80}\)]=]
local SETUP_WALK = [=[(?:^|&)bootstrapstatusprovider\.|applicationconfig\.setupcomplete(?:=|%3d)]=]
-- (Struts' S2-045 in the Content-Type, or an OGNL expression in any other header)
local HEADER_OGNL = [=[[$%]\{\s{0,4}\(?\s{0,4}#[a-z_]|[$%]\{\s{0,4}@(?:java|ognl)\.|#_memberaccess|@ognl\.ognlcontext@]=]

local function folded(v) return fold_lookups(lower(v)) end

-- Each part's checks, in order: the raw query string's, the raw path's, the decoded path's (every
-- match a hit), then every header's (the first match ends the check). A header's hit shows the
-- value its pattern read.
local QUERY = waf_re.checks({
  -- (the pattern is anchored: it matches at 1 or not at all)
  { id = R.php_cgi, re = PHP_CGI, like = "^[%-%%\173]", at = 1 },
  { id = R.setup_walk, re = SETUP_WALK, need = { { "pplicationConfig", "pplicationconfig" } }, subject = lower },
})
local RAW_PATH = waf_re.checks({
  { id = R.path_bypass, re = PATH_BYPASS, opts = "joi", need = { { ";", "%" } } },
  { id = R.citrix, re = CITRIX, opts = "joi", need = "/vpn" },
})
local PATH = waf_re.checks({ { id = R.path_ognl, re = PATH_OGNL, opts = "joi", need = "${" } })
local HEADER = waf_re.checks({
  { id = R.log4shell, re = JNDI, need = "${", subject = folded, shows = "subject" },
  { id = R.header_ognl, re = HEADER_OGNL, need = "{", subject = lower, shows = "subject" },
  -- (no Lua pattern first: one tried at every byte of a User-Agent cost more than the PCRE search)
  { id = R.header_spel, re = HEADER_SPEL, need = "(", subject = lower, shows = "subject" },
})

-- The request as a whole: `raw_path` as sent, `path` decoded, `args` the raw query string,
-- `headers` all of them. hit(id, score, at) with S.part/S.name/S.value set by `where`.
function _M.check(raw_path, path, args, headers, hit, where)
  if args and args ~= "" then run(QUERY, args, hit, false, where, "query", "") end
  run(RAW_PATH, raw_path, hit, false, where, "path", "")
  run(PATH, path, hit, false, where, "path", "")
  for name, v in pairs(headers) do
    if type(v) == "table" then v = table.concat(v, ", ") end
    if run(HEADER, v, hit, true, where, "header", name) then return end
  end
end

-- Every pattern with its rule id and group (test/waf-patterns.test.ts checks them like the rules').
_M.PATTERNS = waf_re.patterns("cve", QUERY)
for _, list in ipairs({ RAW_PATH, PATH, HEADER }) do waf_re.patterns("cve", list, _M.PATTERNS) end

return _M

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

local re_find = waf_re.find
local find, lower = string.find, string.lower
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

-- The request as a whole: `raw_path` as sent, `path` decoded, `args` the raw query string,
-- `headers` all of them. hit(id, score, at) with S.part/S.name/S.value set by `where`.
function _M.check(raw_path, path, args, headers, hit, where)
  if args and args ~= "" then
    local c = string.byte(args, 1)
    if (c == 45 or c == 37 or c == 173) and re_find(args, PHP_CGI, "jo") then
      where("query", "", args)
      hit(R.php_cgi, 8, 1)
    end
  end
  if args and args ~= "" and find(args, "pplication[Cc]onfig") then
    local from = re_find(lower(args), SETUP_WALK, "jo")
    if from then
      where("query", "", args)
      hit(R.setup_walk, 8, from)
    end
  end
  local from = (find(raw_path, ";", 1, true) or find(raw_path, "%", 1, true)) and re_find(raw_path, PATH_BYPASS, "joi")
  if from then
    where("path", "", raw_path)
    hit(R.path_bypass, 8, from)
  end
  from = find(raw_path, "/vpn", 1, true) and re_find(raw_path, CITRIX, "joi")
  if from then
    where("path", "", raw_path)
    hit(R.citrix, 8, from)
  end
  from = find(path, "${", 1, true) and re_find(path, PATH_OGNL, "joi")
  if from then
    where("path", "", path)
    hit(R.path_ognl, 8, from)
  end
  for name, v in pairs(headers) do
    if type(v) == "table" then v = table.concat(v, ", ") end
    if find(v, "{", 1, true) then
      local l = lower(v)
      from = find(l, "${", 1, true) and re_find(fold_lookups(l), JNDI, "jo")
      if from then
        where("header", name, fold_lookups(l))
        hit(R.log4shell, 8, from)
        return
      end
      from = re_find(l, HEADER_OGNL, "jo")
      if from then
        where("header", name, l)
        hit(R.header_ognl, 8, from)
        return
      end
    end
    if find(v, "[Tt]%s*%(") then
      local l = lower(v)
      from = re_find(l, HEADER_SPEL, "jo")
      if from then
        where("header", name, l)
        hit(R.header_spel, 8, from)
        return
      end
    end
  end
end

-- Every pattern with its rule id and group (test/waf-patterns.test.ts checks them like the rules').
_M.PATTERNS = {
  { id = R.php_cgi, group = "cve", re = PHP_CGI }, { id = R.path_bypass, group = "cve", re = PATH_BYPASS },
  { id = R.citrix, group = "cve", re = CITRIX }, { id = R.log4shell, group = "cve", re = JNDI },
  { id = R.path_ognl, group = "cve", re = PATH_OGNL }, { id = R.header_ognl, group = "cve", re = HEADER_OGNL },
  { id = R.header_spel, group = "cve", re = HEADER_SPEL }, { id = R.setup_walk, group = "cve", re = SETUP_WALK },
}

return _M

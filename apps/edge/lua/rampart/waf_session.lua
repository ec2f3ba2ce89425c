-- Session fixation (rampart.waf, group protocol): a request that hands the application a session
-- id under the name of a server framework's own session cookie (JSESSIONID, PHPSESSID,
-- ASP.NET_SessionId, laravel_session, connect.sid ...) as a query or form argument or a JSON key,
-- while the page that sent it is not this site (an off-site Referer, or none). Frameworks that
-- accept their session id from the request's arguments adopt it: a link planted elsewhere logs the
-- victim into a session the attacker knows. Those names are the frameworks' cookie names, never an
-- application's own field; the generic "sessionId"/"session_id" of analytics beacons (sent
-- cross-site by design) are not among them. The names are found by one pattern over the query
-- string or body as sent, so a query or form that is otherwise clean is not parsed for it.
local waf_re = require "rampart.waf_re"

local _M = { RULE = 113013 }

local re_find = waf_re.find
local lower, find, sub = string.lower, string.find, string.sub

-- The frameworks' session cookie names (Java servlets, PHP, ASP/ASP.NET, ColdFusion, WebLogic,
-- Laravel, CodeIgniter, Zend, CakePHP, Rails/Rack, Express/Koa/Sails, Flask, Next-Auth, Play,
-- Meteor, Shiny).
local NAMES = [=[(?:jsessionid|jservsession|jwsession|weblogicsession|phpsessid|phpsession|aspsessionid[a-z]{0,8}|asp(?:\.|%2e)net_sessionid|cfid|cftoken|cfsid|laravel_session|ci_session|zend_session_id|cakephp|_rails_session|_session_id|rack(?:\.|%2e)session|connect(?:\.|%2e)sid|sails(?:\.|%2e)sid|koa(?:[.:]|%2e|%3a)sess|_?flask_session|(?:__(?:host|secure)-)?next-auth(?:\.|%2e)session-token|play_session|meteor_login_token|shiny-token)]=]
-- as an argument of a query string or form as sent, a name's "." and ":" %-encoded or not
-- ("asp.net_sessionid", "koa%3Asess"): the string is not decoded first (a 128 KB form would be
-- copied for it)
-- (asked as two patterns, at the start and after a separator: with the start as an alternative,
-- "(?:^|[&;])", PCRE could not skip to the separators and tried the names at every byte)
local IN_ARGS = [=[(?:^|[&;])]=] .. NAMES .. [=[=]=]
local AT_START, AFTER_SEP = "^" .. NAMES .. "=", "[&;]" .. NAMES .. "="
local IN_JSON = [=["]=] .. NAMES .. [=["\s*:]=]
_M.NAMES, _M.IN_ARGS = NAMES, IN_ARGS
-- Where IN_ARGS finds a name in `raw`, or nil.
function _M.in_args(raw) return re_find(raw, AT_START, "joi") or re_find(raw, AFTER_SEP, "joi") end
-- (for test/waf-patterns.test.ts: both forms, one rule)
_M.PATTERNS = { { id = 113013, group = "protocol", re = IN_ARGS .. "|" .. IN_JSON } }

-- Is the Referer this site's page (its host the request's host, or a subdomain of it or the other
-- way round)? No Referer is not the site's own page.
local function same_site(headers)
  local ref = headers["referer"]
  if type(ref) == "table" then ref = ref[1] end
  local host = headers["host"]
  if type(host) == "table" then host = host[1] end
  if not ref or not host then return false end
  local rh = ref:match("^%a[%w+.-]*://([^/?#]+)")
  if not rh then return false end
  rh = lower(rh):gsub("^.*@", ""):gsub(":%d*$", "")
  host = lower(host):gsub(":%d*$", "")
  if rh == host then return true end
  return sub(rh, -#host - 1) == "." .. host or sub(host, -#rh - 1) == "." .. rh
end

-- `raw`: a query string or urlencoded body as sent (`json`: a JSON body). `hit(id, score, at)`.
function _M.check(raw, json, headers, hit)
  if raw == nil or raw == "" then return end
  local at
  if json then at = re_find(raw, IN_JSON, "joi") else at = _M.in_args(raw) end
  if at and not same_site(headers) then hit(_M.RULE, 5, at) end
end

return _M

-- Open redirects for rampart.waf (group redirect, ids 116000..116999): a parameter whose name says
-- the application will send the browser there ("next", "returnUrl", "redirect_uri", "goto", ...)
-- holding a location on another host, written the ways browsers and URL parsers accept and
-- same-site checks miss (OWASP "Unvalidated Redirects and Forwards" cheat sheet; PortSwigger's URL
-- validation bypass cheat sheet; PayloadsAllTheThings "Open Redirect"):
--   "//evil.example", "/\evil.example", "\\evil.example", "/%09/evil.example" (a browser reads a
--   backslash as a slash and drops tabs and line breaks); "https:evil.example", "https:/\evil" (a
--   scheme without its two slashes); "https://trusted.example@evil.example" (userinfo);
--   "javascript:"/"data:" schemes (also the xss group's); a leading "@" or "." glued to a host;
--   a backslash inside the authority before an "@" ("https://evil.example\@trusted.example": a
--   browser ends the host at the backslash, a validator that splits at "@" sees trusted.example).
-- In an XML body, an element whose name is a destination's ("<returnUrl>//evil</returnUrl>").
-- The value is the decoded one (URL, double URL, HTML entities, overlong UTF-8, full-width forms:
-- rampart.waf_decode), control characters and spaces dropped, backslashes read as slashes.
-- A same-site path ("/account", "/a//b") and a full URL without those tricks are not judged here.
local re_find, gmatch_from = require("rampart.waf_re").find, require("rampart.waf_re").gmatch_from

local _M = {}

local find, lower, gsub = string.find, string.lower, string.gsub

local R = { protocol_relative = 116001, scheme_trick = 116002, userinfo = 116003, script = 116004, raw_scheme = 116005,
  protocol_relative_path = 116006, authority_backslash = 116007, xml_name = 116008 }
_M.RULES = R

-- Names (lower-cased; the last word of "a[b]" or "a.b" too) of parameters that hold a destination.
local NAMES = {}
for w in ([[redirect redirect_uri redirect_url redirecturi redirecturl redirectto redirect_to redir
  redir_url return return_to returnto return_url returnurl return_path returnpath returnuri next
  next_url nexturl url goto go target dest destination continue continue_url forward forward_url
  fwd callback callback_url callbackurl success_url successurl failure_url error_url cancel_url
  login_url logout_url logout_redirect post_login_redirect_uri post_logout_redirect_uri ref
  referer referrer back backurl back_url from from_url to out view rurl r u link location
  checkout_url image_url jump jump_url navigate page_url service spring-redirect
  window origin relaystate target_url targeturl retpath ret uri path_to]]):gmatch("%S+") do
  NAMES[w] = true
end
_M.NAMES = NAMES
-- Where a decoded query string or form ("a=1&b=2", its separators only separators) may hold an
-- argument is_name() accepts: never misses one (it may find a name is_name() turns down).
local names_list = {}
for w in pairs(NAMES) do names_list[#names_list + 1] = w end
table.sort(names_list, function(a, b) return #a > #b end)
local LIST = require("rampart.waf_re").by_first_letter(table.concat(names_list, "|"))
local NAME = [=[(?:(?:]=] .. LIST .. [=[)|[^=&]*[\[.](?:]=] .. LIST .. [=[)\]?)(?=[=&]|$)]=]
-- Does a query string or form hold an argument so named (as is_name() reads it)? NAME_IN_ARGS, one
-- pattern, is the reference; name_in_args() asks it in two, after an "&" and at the start: with
-- the start as an alternative, "(?:^|&)", PCRE cannot skip to the "&"s and tried the names at each
-- byte (140 µs on a 128 KB form).
_M.NAME_IN_ARGS = "(?i)(?:^|&)" .. NAME
local NAME_AT_START, NAME_AFTER_AMP = "(?i)^" .. NAME, "(?i)&" .. NAME
-- (the position of a find, or nil and a pattern's error)
function _M.name_in_args(s)
  local at, _, err = re_find(s, NAME_AT_START, "jo")
  if at or err then return at, err end
  at, _, err = re_find(s, NAME_AFTER_AMP, "jo")
  return at, err
end

-- (answers kept per name: a long form repeats its names)
local seen, seen_n = {}, 0
function _M.is_name(name)
  if name == nil or name == "" or #name > 64 then return false end
  local known = seen[name]
  if known ~= nil then return known end
  local n = lower(name)
  local last = n:match("[%[.]([%w_-]+)%]?$")
  known = NAMES[n] == true or (last ~= nil and NAMES[last] == true)
  if seen_n >= 1024 then seen, seen_n = {}, 0 end
  seen[name], seen_n = known, seen_n + 1
  return known
end

-- Another host and nothing more ("//evil.example", "//evil.example/"), more than two slashes, or
-- a host followed by what only a bypass writes ("//evil.example//..", "//evil.example/%2f.."): a
-- protocol-relative link into a real path ("//cdn.example/app/page?id=7", which beacons and
-- same-site return links carry) is a weak signal only.
local PROTOCOL_RELATIVE = [=[^/{3,}|^//[^/?#]{1,253}/?$|^//[^/?#]{1,253}/(?:/|\.\.|\.?/|[?#]?$)]=]
local PROTOCOL_RELATIVE_PATH = [=[^//[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}[/?#]]=]
local SCHEME_TRICK = [=[^(?:https?|ftp):(?!//[^/])[^\s]|^(?:https?|ftp):/{3,}]=]
local USERINFO = [=[^(?:(?:https?|ftp):)?//[^/?#@]{1,256}@[^/?#@]{1,256}\.[a-z]{2,}]=]
local SCRIPT = [=[^(?:javascript|vbscript|data|livescript):]=]

-- A scheme followed by a backslash or an encoded slash, as sent (before decoding).
local RAW_SCHEME_TRICK = [=[^\s{0,4}(?:https?|ftp):\s{0,4}(?:[/\\]{0,2}\\|%(?:2f|5c|25))]=]

local AUTHORITY_BACKSLASH = [=[^\s{0,4}(?:(?:https?|ftp):)?[/\\]{2}[^/?#@\\\s]{1,253}\\[^/?#]{0,256}@]=]

-- `v`: the decoded value of a parameter `is_name` accepted; `raw` as sent.
function _M.check(v, hit, raw)
  if #v < 2 or #v > 4096 then return end
  if raw and raw ~= v and re_find(lower(raw), RAW_SCHEME_TRICK, "jo") then
    hit(R.raw_scheme, 8, 1)
    return
  end
  local s = v
  if find(s, "\\", 1, true) and find(s, "@", 1, true) and re_find(s, AUTHORITY_BACKSLASH, "joi") then
    hit(R.authority_backslash, 8, 1)
    return
  end
  -- what a browser drops or reads as a slash
  if find(s, "[%z\1-\32\127\\]") then s = gsub(gsub(s, "[%z\1-\32\127]", ""), "\\", "/") end
  if raw == nil or raw == v then
    if re_find(lower(v), RAW_SCHEME_TRICK, "jo") then
      hit(R.raw_scheme, 8, 1)
      return
    end
  end
  s = lower(s)
  local c = s:byte(1)
  if c == 47 then
    if re_find(s, PROTOCOL_RELATIVE, "jo") then
      hit(R.protocol_relative, 8, 1)
    elseif re_find(s, PROTOCOL_RELATIVE_PATH, "jo") then
      hit(R.protocol_relative_path, 3, 1)
    end
    if find(s, "@", 1, true) and re_find(s, USERINFO, "jo") then hit(R.userinfo, 8, 1) end
    return
  end
  if c == 64 and find(s, "^@[%w-]+%.[%a]") then
    hit(R.userinfo, 5, 1)
    return
  end
  if not find(s, ":", 1, true) then return end
  if re_find(s, SCHEME_TRICK, "jo") then hit(R.scheme_trick, 8, 1) end
  if find(s, "@", 1, true) and re_find(s, USERINFO, "jo") then hit(R.userinfo, 8, 1) end
  if re_find(s, SCRIPT, "jo") then hit(R.script, 8, 1) end
end

-- An XML body's elements named as a destination, their text read as check() reads a parameter's
-- (where the hit is goes to rampart.waf_state).
local NAME_IN_XML = [=[(?i)<(?:[\w.-]{1,40}:)?(?:]=] .. LIST .. [=[)\s{0,4}>]=]
function _M.xml(body, hit)
  local S, decode = require("rampart.waf_state"), require("rampart.waf_decode").decode
  if not re_find(body, NAME_IN_XML, "jo") then return end
  local n = 0
  for tag, text in gmatch_from(body, "<", "<([%w_.:-]+)%s*>([^<]*)</") do
    local name = tag:match("[^:]+$")
    if _M.is_name(name) then
      local v = find(text, "[%%&\\\192\193\224\239]") and decode(text) or text
      S.part, S.name, S.value = "body", name, text
      _M.check(v, hit, text)
      if S.done then return end
    end
    n = n + 1
    if n > 2048 then return end
  end
end

-- Every pattern with its rule id and group (test/waf-patterns.test.ts checks them like the rules').
_M.PATTERNS = {
  { id = R.protocol_relative, group = "redirect", re = PROTOCOL_RELATIVE },
  { id = R.protocol_relative_path, group = "redirect", re = PROTOCOL_RELATIVE_PATH },
  { id = R.scheme_trick, group = "redirect", re = SCHEME_TRICK }, { id = R.userinfo, group = "redirect", re = USERINFO },
  { id = R.script, group = "redirect", re = SCRIPT }, { id = R.raw_scheme, group = "redirect", re = RAW_SCHEME_TRICK },
  { id = R.authority_backslash, group = "redirect", re = AUTHORITY_BACKSLASH },
  -- (the pre-check of xml(): its id names no hit)
  { id = R.xml_name, group = "redirect", re = NAME_IN_XML },
}

return _M

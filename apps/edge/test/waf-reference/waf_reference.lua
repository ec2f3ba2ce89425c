-- The WAF's value checks as they were before the CPU pass (commit 4be78478), kept as the reference
-- that test/waf-prefilter.test.ts runs beside today's on the same generated material: the
-- prefilters as one alternation (\b before the words), the named-entity pass guarded by a Lua
-- class search, base64 without its PCRE pre-check, the shell-quoting test as two class searches,
-- the rules' literal guards as plain searches one by one. (The prefilters' words and sequences
-- follow today's: T-SQL "declare @", DDL's "create table", PostgreSQL's "::int" casts and the
-- URL schemes of internal services, "ldap://", "redis://" ..., were added to both.)
local find, gsub, sub, lower = string.find, string.gsub, string.sub, string.lower
local decode_base64 = ngx.decode_base64

local _M = {}

_M.PREFILTER = [=[[<>'"`;(){}\[\]$|&\\%=#!^~\r\n\x00]|\.\.|/\.|/(?:etc|proc|bin|usr|var|windows|winnt|dev|tmp|inetpub)\b|(?i:\b(?:select|union|sleep|benchmark|waitfor|having|insert|delete|drop\s|exec|shutdown|information_schema|jndi|javascript|vbscript|file:|php:|data:|gopher:|dict:|java\.|javax\.|processbuilder|runtime|transformer|pg_|xp_|sp_|sqlite_|process|function|module\.|require|child_|alias|tempdb|msdb|mysql\.|docker\.internal|ip6-|declare\s{1,8}@|create\s+(?:table|database|function|procedure|trigger)\b|sh\s+-c\b|whoami|ifconfig|ipconfig|if\s+(?:/i\s+)?(?:not\s+)?(?:exist|defined|errorlevel|cmdextversion)\b|constructor|prototype|localhost|127\.0|169\.254|passwd|system32|win\.ini|ftps?:|https?:|ldaps?://|rmi://|iiop://|dns://|tftp://|jar://|netdoc://|fastcgi://|sftp://|mailto://|telnet://|ssh://|nfs://|smb://|redis://|mysql://|postgres(?:ql)?://|mongodb://|memcached://|zookeeper://|rtsp://)|/bin/|/sys/|\.ssh/|\+adw-|(?i:\.internal\b|\.svc\b|lvh\.me|localtest\.me|nip\.io|sslip\.io|\b(?:document|window)\s*\.|\b(?:ansible|chef-|visudo|cscli|bsdtar|mkfifo|busybox|regedit)))|(?<![\d\s])\*|\*(?![\d\s])|(?<![\w.])(?i:com|org)\.[a-zA-Z]|__(?i:proto|import|js_|class|globals|builtins|init|mro|subclasses)|\bdb\.[\w$]{1,64}[.(\s]|\xe2\x80[\xa4\xa5]|\xe2(?:\x88\x95|\x81\x84|\xa7\xb5)|\xef\xb9\x92|(?i:::(?:int[248]?|integer|text|varchar|bigint|numeric|regclass|oid|bytea|jsonb?|inet|uuid)\b)]=]
_M.ARGS_PREFILTER = [=[[<>'"`;(){}\[\]$|\\%#!^~\r\n\x00]|\.\.|/\.|/(?:etc|proc|bin|usr|var|windows|winnt|dev|tmp|inetpub)\b|(?i:\b(?:select|union|sleep|benchmark|waitfor|having|insert|delete|drop\s|exec|shutdown|information_schema|jndi|javascript|vbscript|file:|php:|data:|gopher:|dict:|java\.|javax\.|processbuilder|runtime|transformer|pg_|xp_|sp_|sqlite_|process|function|module\.|require|child_|alias|tempdb|msdb|mysql\.|docker\.internal|ip6-|declare\s{1,8}@|create\s+(?:table|database|function|procedure|trigger)\b|sh\s+-c\b|whoami|ifconfig|ipconfig|if\s+(?:/i\s+)?(?:not\s+)?(?:exist|defined|errorlevel|cmdextversion)\b|constructor|prototype|localhost|127\.0|169\.254|passwd|system32|win\.ini|ftps?:|https?:|ldaps?://|rmi://|iiop://|dns://|tftp://|jar://|netdoc://|fastcgi://|sftp://|mailto://|telnet://|ssh://|nfs://|smb://|redis://|mysql://|postgres(?:ql)?://|mongodb://|memcached://|zookeeper://|rtsp://)|/bin/|/sys/|\.ssh/|\+adw-|(?i:\.internal\b|\.svc\b|lvh\.me|localtest\.me|nip\.io|sslip\.io|\b(?:document|window)\s*\.|\b(?:ansible|chef-|visudo|cscli|bsdtar|mkfifo|busybox|regedit)))|(?<![\d\s])\*|\*(?![\d\s])|(?<![\w.])(?i:com|org)\.[a-zA-Z]|__(?i:proto|import|js_|class|globals|builtins|init|mro|subclasses)|\bdb\.[\w$]{1,64}[.(\s]|\xe2\x80[\xa4\xa5]|\xe2(?:\x88\x95|\x81\x84|\xa7\xb5)|\xef\xb9\x92|(?i:::(?:int[248]?|integer|text|varchar|bigint|numeric|regclass|oid|bytea|jsonb?|inet|uuid)\b)]=]

local decode = require "rampart.waf_decode"
local NAMED, utf8 = decode.NAMED, decode.utf8
local function named(name) return NAMED[lower(name)] end
local function hex_cp(h) return utf8(tonumber(h, 16)) end
local function dec_cp(d) return utf8(tonumber(d, 10)) end
function _M.html(s)
  if not find(s, "&", 1, true) then return s end
  if find(s, "&#", 1, true) then
    s = gsub(s, "&#[xX]0*(%x%x?%x?%x?%x?%x?);?", hex_cp)
    s = gsub(s, "&#0*(%d%d?%d?%d?%d?%d?%d?);?", dec_cp)
  end
  if find(s, "&%a%a") then s = gsub(s, "&(%a%a+);?", named) end
  return s
end

function _M.base64(s)
  local n = #s
  if n < 12 or n > 65536 then return nil end
  if not (find(s, "%u") and find(s, "%l")) then return nil end
  if find(s, " ", 1, true) and not find(s, "  ", 1, true) then s = gsub(s, " ", "+") end
  if not find(s, "^[%w+/_%-]+=?=?$") then return nil end
  local t = s
  if find(t, "[_-]") then t = gsub(gsub(t, "-", "+"), "_", "/") end
  local pad = #t % 4
  if pad == 1 then return nil end
  if pad > 0 then t = t .. sub("==", 1, 4 - pad) end
  local out = decode_base64(t)
  if out == nil or #out < 6 then return nil end
  local head = sub(out, 1, 32)
  local _, bad = gsub(head, "[^\9\10\13\32-\126]", "")
  if bad * 10 > #head then return nil end
  if #out > 32 then
    _, bad = gsub(out, "[^\9\10\13\32-\126]", "")
    if bad * 10 > #out then return nil end
  end
  return out
end

-- rampart.waf_rules guarded(), before rampart.waf_guard
function _M.guarded(guard, s)
  for i = 1, #guard do
    if find(s, guard[i], 1, true) then return true end
  end
  return false
end

function _M.shell_quoted(l)
  return (find(l, "%w['\"\\]+[%w/]") or find(l, "%[%w%]")) ~= nil
end

-- rampart.waf_path's normalise() before its passes were put behind plain searches.
local LOOKALIKE = {
  ["\226\128\164"] = ".", ["\226\128\165"] = "..", ["\239\185\146"] = ".", ["\226\136\149"] = "/",
  ["\226\129\132"] = "/", ["\226\167\181"] = "/",
}
function _M.normalise(l)
  local n = l
  if find(n, "\226", 1, true) or find(n, "\239", 1, true) then n = gsub(n, "[\226\239][\128-\191][\128-\191]", LOOKALIKE) end
  if find(n, "\\", 1, true) then n = gsub(n, "\\", "/") end
  if find(n, ";", 1, true) then n = gsub(n, "(%.%.?);[^/]*", "%1") end
  if find(n, "//", 1, true) or find(n, "/./", 1, true) then
    n = gsub(n, "//+", "/")
    for _ = 1, 8 do
      local before = n
      n = gsub(n, "/%./", "/")
      if n == before then break end
    end
    n = gsub(n, "^%./", "")
  end
  if find(n, "...", 1, true) then n = gsub(n, "%.%.%.+/", "../") end
  if n == l then return nil end
  return n
end

return _M

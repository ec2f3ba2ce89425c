-- The WAF's decoders (rampart.waf): what an application would make of a value before using it.
-- Every decoder is a linear pass (gsub over a fixed pattern) and runs only when the value holds
-- its trigger byte; decode() applies them together, repeatedly, at most ROUNDS times, so a
-- value encoded three times over is seen as the application sees it and an adversarial one costs
-- a bounded number of passes.
--   URL: %XX and %uXXXX (IIS); "+" is a space only where the caller says (query/form values
--        were already decoded by nginx's argument parser, where + is a space).
--   HTML entities: &#NN; &#xHH; (semicolon optional, leading zeros) and the named entities that
--        matter for markup and scripts (&lt; &colon; &lpar; &Tab; ...).
--   JS and Unicode escapes: \xHH, \uHHHH, \u{H...}; full-width ASCII forms (U+FF01..FF5E) and
--        overlong UTF-8 (C0/C1 xx, E0 80 xx) folded to the ASCII they hide.
-- base64(): a value that looks like base64 (one run of the alphabet, long enough) decoded, when
-- what comes out is mostly printable text: an extra candidate, never a replacement.
local _M = {}

local byte, char, find, gsub, sub, lower = string.byte, string.char, string.find, string.gsub, string.sub, string.lower
local tonumber, floor = tonumber, math.floor
local unescape = ngx.unescape_uri
local decode_base64 = ngx.decode_base64
local re_find = require("rampart.waf_re").find

local ROUNDS = 3

-- A code point as UTF-8; full-width ASCII as the ASCII it stands for; NUL and surrogates dropped.
local function utf8(cp)
  if cp == nil or cp == 0 then return "" end
  if cp >= 0xFF01 and cp <= 0xFF5E then cp = cp - 0xFEE0 end
  if cp < 0x80 then return char(cp) end
  if cp < 0x800 then return char(0xC0 + floor(cp / 64), 0x80 + cp % 64) end
  if cp >= 0xD800 and cp <= 0xDFFF then return "" end
  if cp < 0x10000 then
    return char(0xE0 + floor(cp / 4096), 0x80 + floor(cp / 64) % 64, 0x80 + cp % 64)
  end
  if cp < 0x110000 then
    return char(0xF0 + floor(cp / 262144), 0x80 + floor(cp / 4096) % 64, 0x80 + floor(cp / 64) % 64, 0x80 + cp % 64)
  end
  return ""
end
_M.utf8 = utf8

local function hex_cp(h) return utf8(tonumber(h, 16)) end
local function dec_cp(d) return utf8(tonumber(d, 10)) end

local NAMED = {
  lt = "<", gt = ">", quot = '"', apos = "'", amp = "&", colon = ":", lpar = "(", rpar = ")",
  tab = "\t", newline = "\n", sol = "/", bsol = "\\", lcub = "{", rcub = "}", lbrace = "{", rbrace = "}",
  semi = ";", comma = ",", period = ".", excl = "!", equals = "=", quest = "?", num = "#", dollar = "$",
  percnt = "%", lsqb = "[", rsqb = "]", lbrack = "[", rbrack = "]", ast = "*", plus = "+", grave = "`",
  nbsp = " ", vert = "|", verbar = "|", hat = "^", lowbar = "_", dash = "-", hyphen = "-", commat = "@",
}

local function named(name)
  return NAMED[lower(name)]
end
-- "&" and a whole run of letters that is one of NAMED (what the gsub below replaces; any other
-- "&word" it leaves as it is): one PCRE pass instead of a Lua call per "&word" of a long value
-- (the query strings and URLs in beacons are full of them).
local named_list = {}
for k in pairs(NAMED) do named_list[#named_list + 1] = k end
table.sort(named_list, function(a, b) return #a > #b end)
local NAMED_RE = "&(?i:" .. table.concat(named_list, "|") .. ")(?![a-zA-Z])"
_M.NAMED, _M.NAMED_RE = NAMED, NAMED_RE

-- URL decoding with %uXXXX. Invalid escapes stay as they are.
-- Each decoder looks for its trigger with a plain search before any pattern pass.
function _M.url(s)
  if not find(s, "%", 1, true) then return s end
  if (find(s, "%u", 1, true) or find(s, "%U", 1, true)) then s = gsub(s, "%%[uU](%x%x%x%x)", hex_cp) end
  return unescape(s)
end

function _M.html(s)
  if not find(s, "&", 1, true) then return s end
  if find(s, "&#", 1, true) then
    s = gsub(s, "&#[xX]0*(%x%x?%x?%x?%x?%x?);?", hex_cp)
    s = gsub(s, "&#0*(%d%d?%d?%d?%d?%d?%d?);?", dec_cp)
  end
  if re_find(s, NAMED_RE, "jo") then s = gsub(s, "&(%a%a+);?", named) end
  return s
end

function _M.js(s)
  if not find(s, "\\", 1, true) then return s end
  local u = find(s, "\\u", 1, true) or find(s, "\\U", 1, true)
  if u then
    if find(s, "{", 1, true) then s = gsub(s, "\\[uU]{0*(%x%x?%x?%x?%x?%x?)}", hex_cp) end
    s = gsub(s, "\\[uU](%x%x%x%x)", hex_cp)
  end
  if find(s, "\\x", 1, true) or find(s, "\\X", 1, true) then s = gsub(s, "\\[xX](%x%x)", hex_cp) end
  return s
end

-- Overlong UTF-8 (a classic way to hide "." and "/" from a filter) and full-width forms.
local function overlong2(a, b) return char((byte(a) - 0xC0) * 64 + byte(b) - 0x80) end
local function overlong3(b) return char(byte(b) - 0x80) end
-- (the full-width replacements are functions of the module: a closure made per call stops
-- LuaJIT's trace compiler)
local function fullwidth_bc(b) return char(byte(b) - 0x60) end
local function fullwidth_bd(b) return char(byte(b) - 0x20) end
function _M.unicode(s)
  -- plain searches: CJK text is full of other lead bytes, and a class search is slow on it
  local c0, c1 = find(s, "\192", 1, true), find(s, "\193", 1, true)
  local e0, ef = find(s, "\224\128", 1, true), find(s, "\239\188", 1, true) or find(s, "\239\189", 1, true)
  if not (c0 or c1 or e0 or ef) then return s end
  s = gsub(s, "([\192\193])([\128-\191])", overlong2)
  s = gsub(s, "\224\128([\128-\191])", overlong3)
  -- U+FF01..FF5E: EF BC 81..BF and EF BD 80..9E
  s = gsub(s, "\239\188([\129-\191])", fullwidth_bc)
  s = gsub(s, "\239\189([\128-\158])", fullwidth_bd)
  return s
end

-- All decoders, repeatedly (at most ROUNDS times), until the value stops changing.
function _M.decode(s)
  for _ = 1, ROUNDS do
    if not _M.encoded(s) then break end
    local before = s
    s = _M.url(s)
    s = _M.html(s)
    s = _M.js(s)
    s = _M.unicode(s)
    if find(s, "\0", 1, true) then s = gsub(s, "%z", "") end
    if s == before then break end
  end
  return s
end

-- Does the value hold a byte any decoder acts on?
function _M.encoded(s)
  return find(s, "%", 1, true) ~= nil or find(s, "&", 1, true) ~= nil or find(s, "\\", 1, true) ~= nil
    or find(s, "\192", 1, true) ~= nil or find(s, "\193", 1, true) ~= nil or find(s, "\224\128", 1, true) ~= nil
    or find(s, "\239\188", 1, true) ~= nil or find(s, "\239\189", 1, true) ~= nil or find(s, "\0", 1, true) ~= nil
end

-- A base64 (or base64url) value decoded into mostly printable text, or nil.
function _M.base64(s)
  local n = #s
  if n < 12 or n > 65536 then return nil end
  -- "+" read as a space by a query or form parser
  -- Plain words and numbers are valid base64 too: ask for a mix of cases (tested first: cheaper
  -- than the pattern, and most tokens of real traffic stop here)
  -- (a long value: one PCRE scan for a byte base64 cannot hold, which prose shows at once)
  if n > 64 and re_find(s, [=[[^\w+/\- =]]=], "jo") then return nil end
  -- (a capital letter found by PCRE: a Lua class search is tried at every byte of the lower-case
  -- tokens most values are)
  if not (re_find(s, "[A-Z]", "jo") and find(s, "%l")) then return nil end
  if find(s, " ", 1, true) and not find(s, "  ", 1, true) then s = gsub(s, " ", "+") end
  -- (PCRE: the Lua pattern "^[%w+/_%-]+=?=?$" it replaces tested its class item by item at every
  -- byte of every mixed-case token)
  if not re_find(s, [=[^[A-Za-z0-9+/_-]+={0,2}\z]=], "jo") then return nil end
  local t = s
  if find(t, "_", 1, true) or find(t, "-", 1, true) then t = gsub(gsub(t, "-", "+"), "_", "/") end
  local pad = #t % 4
  if pad == 1 then return nil end
  if pad > 0 then t = t .. sub("==", 1, 4 - pad) end
  local out = decode_base64(t)
  if out == nil or #out < 6 then return nil end
  -- Mostly printable ASCII (tabs and newlines allowed): binary tokens stay what they are.
  -- (a binary token shows it in its first bytes: most are rejected without a pass over all of it)
  local head = sub(out, 1, 32)
  local _, bad = gsub(head, "[^\9\10\13\32-\126]", "")
  if bad * 10 > #head then return nil end
  if #out > 32 then
    _, bad = gsub(out, "[^\9\10\13\32-\126]", "")
    if bad * 10 > #out then return nil end
  end
  return out
end

return _M

-- The visitor's language of the edge's pages from Accept-Language (rampart.pages), read where
-- nginx keeps the header: no Lua string of the header, of its items or of its ranges.
--
-- A refused request's page is in the visitor's language, so a flood sends the header as long and
-- as varied as it likes. Made a Lua string per request, such headers of one length that differ
-- only in bytes LuaJIT's string hash does not read share one bucket of the string table, and each
-- new one is compared with every one of that bucket still alive (bench/edge/quick.ts
-- `flood_language_crafted`; docs/decisions/0117-pages-never-joined.md). Here the bytes are read
-- through a pointer; only a q value of a range of ours becomes a (short) string, for tonumber.
--
-- The answer is the one of the string parser it replaced: the first ACCEPT_MAX bytes, lower-cased,
-- split at commas; each item's range `^%s*([a-z][a-z0-9-]*)`; its q from the first
-- `;%s*q%s*=%s*([0-9.]+)` (tonumber, 0 when not a number; 1 without one); the range of ours with
-- the highest q, the first of equals; nil when none (or only with q=0).
local ffi = require "ffi"
local reader = require("rampart.request_url").reader

local cast, ffi_str, tonumber = ffi.cast, ffi.string, tonumber
local BYTES = ffi.typeof("const uint8_t *")

local _M = {}

-- The first 512 bytes are read: enough for any browser's list, bounded for any other.
local ACCEPT_MAX = 512

local COMMA, SEMI, EQ, DASH, DOT = 44, 59, 61, 45, 46

local function low(b)
  if b >= 65 and b <= 90 then return b + 32 end
  return b
end

local function space(b)
  return b == 32 or (b >= 9 and b <= 13)
end

local function letter(b)
  return b >= 97 and b <= 122
end

local function range_char(b)
  return (b >= 97 and b <= 122) or (b >= 48 and b <= 57) or b == DASH
end

-- Whether the `n` bytes at p[at] are `s` (lower-cased bytes; `s` lower case).
local function starts(p, at, n, s)
  if n < #s then return false end
  for i = 1, #s do
    if low(p[at + i - 1]) ~= s:byte(i) then return false end
  end
  return true
end

-- One language range (the `n` bytes at p[at]) → one of ours, or nil. A script subtag wins over a
-- region: zh-Hant-CN is Traditional, zh-Hans-HK Simplified.
local function language_of(p, at, n)
  if (n == 2 and starts(p, at, n, "en")) or starts(p, at, n, "en-") then return "en_US" end
  if n == 2 and starts(p, at, n, "zh") then return "zh_CN" end
  if not starts(p, at, n, "zh-") then return nil end
  if starts(p, at, n, "zh-hant") then return "zh_TW" end
  if starts(p, at, n, "zh-hans") then return "zh_CN" end
  if starts(p, at, n, "zh-tw") or starts(p, at, n, "zh-hk") or starts(p, at, n, "zh-mo") then return "zh_TW" end
  return "zh_CN"
end

-- The q of the item p[from, to): the first `;%s*q%s*=%s*([0-9.]+)` in it, or 1 without one.
local function q_of(p, from, to)
  for s = from, to - 1 do
    if p[s] == SEMI then
      local t = s + 1
      while t < to and space(p[t]) do t = t + 1 end
      if t < to and low(p[t]) == 113 then -- q
        t = t + 1
        while t < to and space(p[t]) do t = t + 1 end
        if t < to and p[t] == EQ then
          t = t + 1
          while t < to and space(p[t]) do t = t + 1 end
          local v = t
          while t < to and ((p[t] >= 48 and p[t] <= 57) or p[t] == DOT) do t = t + 1 end
          if t > v then return tonumber(ffi_str(p + v, t - v)) or 0 end
        end
      end
    end
  end
  return 1
end

-- The language of the `len` bytes at `p` (a const uint8_t *), or nil.
local function language_at(p, len)
  if len > ACCEPT_MAX then len = ACCEPT_MAX end
  local best, best_q = nil, 0
  local i = 0
  while true do
    local j = i
    while j < len and p[j] ~= COMMA do j = j + 1 end
    local k = i
    while k < j and space(p[k]) do k = k + 1 end
    if k < j and letter(low(p[k])) then
      local r = k
      k = k + 1
      while k < j and range_char(low(p[k])) do k = k + 1 end
      local language = language_of(p, r, k - r)
      if language then
        local q = q_of(p, i, j)
        if q > best_q then best, best_q = language, q end
      end
    end
    if j >= len then break end
    i = j + 1
  end
  return best
end

-- The language of an Accept-Language value `header` (a Lua string), or nil.
function _M.of(header)
  if type(header) ~= "string" or header == "" then return nil end
  return language_at(cast(BYTES, header), #header)
end

local header = reader("http_accept_language")

-- The language of this request's Accept-Language, or nil (none, empty, or none of ours).
function _M.visitor()
  local len = header.read()
  if len == nil or len == 0 then return nil end
  return language_at(cast(BYTES, header.pointer()), len)
end

return _M

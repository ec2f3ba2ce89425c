-- The absolute URL the site firewall's patterns are matched against ($rampart_fw_url, a map in
-- public-server.ts: `scheme://host[:port]/path?query`), read and matched without making it a Lua
-- string (rampart.firewall, firewall_frequency, firewall_geo, firewall_headers).
--
-- LuaJIT interns every string, and its hash of a long string reads only a few bytes (the start,
-- the end, the middle and a quarter): URLs of one length that differ elsewhere share one bucket of
-- the string table, and making each new one compares it with every one of that bucket still alive.
-- A client that sends such URLs made the firewall slower per request the longer the flood went on
-- (bench/edge/quick.ts `firewall_crafted`; docs/decisions/0117-pages-never-joined.md for the pages).
-- Here the URL stays in nginx's request memory: read() takes a pointer to nginx's value and its
-- length (resty.core's variable read, without its ffi.string), find() runs the pattern on it with
-- the compiled regex that ngx.re.find would use (resty.core.regex, the same "jo" flags, the same
-- lua_regex_match_limit): the same answer as `ngx.re.find(ngx.var.rampart_fw_url, pattern, "jo")`.
--
-- The same for the other request strings a client makes as long as it likes: the firewall's
-- User-Agent its user-agent rules match and the path it compares with the challenge path, the
-- Referer of the anti-referer lists (rampart.firewall_headers) and the pass cookie (rampart.challenge).
--
-- What a reader read is its state until its next read(): callers read once per request (the
-- firewall's `url`, nil until a rule needs it, then the length read() answered) and match in the
-- same phase. Runs in set_by_lua: nothing here yields.
local ffi = require "ffi"
local base = require "resty.core.base"
require "resty.core.var" -- declares ngx_http_lua_ffi_var_get and ngx_http_lua_ffi_var_set
local regex = require "resty.core.regex" -- declares ngx_http_lua_ffi_exec_regex

local C = ffi.C
local get_request = base.get_request
local re_compile = regex.re_match_compile
local tonumber = tonumber

local _M = {}

pcall(ffi.cdef, [[
  int memcmp(const void *s1, const void *s2, size_t n);
]])
pcall(ffi.cdef, [[
  void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
]])

local value = ffi.new("unsigned char *[1]")
local value_len = ffi.new("size_t[1]")
local errmsg = base.get_errmsg_ptr()
local PCRE_ERROR_NOMATCH = -1

-- Compiled patterns of this worker: { compiled regex, flags } by options and pattern. Rules come
-- and go with the plane's generations: a table starts again past CACHE_MAX patterns.
local CACHE_MAX = 1024
local caches, cached = {}, 0

local function compiled(pattern, options)
  local cache = caches[options]
  if cache == nil then
    cache = {}
    caches[options] = cache
  end
  local c = cache[pattern]
  if c == nil then
    local re, err, flags = re_compile(pattern, options)
    if re == nil then return nil, err end
    if cached >= CACHE_MAX then
      cache, cached = {}, 0
      caches = { [options] = cache }
    end
    c = { re, flags }
    cache[pattern] = c
    cached = cached + 1
  end
  return c
end

-- A reader of the nginx variable `name`: read() takes this request's value (nginx's memory) and
-- answers its length, a number, or nil when the request has no such value (then the value read is
-- "", as the firewall's user-agent rules take a missing User-Agent); find(pattern, options) matches
-- the value read as ngx.re.find(value, pattern, options) would: true, false, or nil and an error.
local function reader(name)
  local name_buf = ffi.new("char[?]", #name)
  local ptr, len = "", 0
  local self = {}
  function self.read()
    local r = get_request()
    if r ~= nil and C.ngx_http_lua_ffi_var_get(r, name, #name, name_buf, 0, value, value_len, errmsg) == 0 then
      ptr, len = value[0], tonumber(value_len[0])
      return len
    end
    ptr, len = "", 0
    return nil
  end
  function self.find(pattern, options)
    local c, err = compiled(pattern, options or "jo")
    if c == nil then return nil, err end
    local rc = C.ngx_http_lua_ffi_exec_regex(c[1], c[2], ptr, len, 0)
    if rc > 0 then return true end
    if rc == PCRE_ERROR_NOMATCH then return false end
    if rc == 0 then return nil, "capture size too small" end
    return nil, "pcre_exec() failed: " .. rc
  end
  -- Whether the value read is exactly `s` (compared in place).
  function self.equals(s)
    return len == #s and (type(ptr) == "string" and ptr == s or C.memcmp(ptr, s, len) == 0)
  end
  -- Whether the value read starts with `s` (compared in place).
  function self.starts(s)
    local n = #s
    return len >= n and (type(ptr) == "string" and ptr:sub(1, n) == s or C.memcmp(ptr, s, n) == 0)
  end
  -- Whether the value read holds `s` anywhere (as string.find(value, s, 1, true); "" is in every value).
  function self.contains(s)
    local n = #s
    if n == 0 then return true end
    return len >= n and C.memmem(ptr, len, s, n) ~= nil
  end
  -- The value read: a pointer into nginx's memory (a Lua string, "", when none was found).
  function self.pointer()
    return ptr
  end
  -- The length of the value read (0 when none was found).
  function self.length()
    return len
  end
  -- The value read as a Lua string (tests and tools; the hot paths never make it).
  function self.string()
    if type(ptr) == "string" then return ptr end
    return ffi.string(ptr, len)
  end
  return self
end
_M.reader = reader

-- A writer of the nginx variable `name` from parts: Lua strings (short ones: constants, the host)
-- and values readers read (in place), joined in a C buffer and copied by nginx into the request,
-- so the whole never becomes a Lua string. reset(), then add(s) / add_read(reader) in order, then
-- set(). The buffer grows to the longest value written (a request's path and query: nginx's
-- header buffers bound them).
function _M.writer(name)
  local name_len = #name
  local scratch = ffi.new("unsigned char[?]", name_len + 256)
  local errbuf = scratch + name_len
  local errlen = ffi.new("size_t[1]")
  local size = 1024
  local buf = ffi.new("unsigned char[?]", size)
  local used = 0
  local function reserve(n)
    if used + n <= size then return end
    while size < used + n do size = size * 2 end
    local bigger = ffi.new("unsigned char[?]", size)
    ffi.copy(bigger, buf, used)
    buf = bigger
  end
  local self = {}
  function self.reset()
    used = 0
  end
  function self.add(s)
    local n = #s
    reserve(n)
    ffi.copy(buf + used, s, n)
    used = used + n
  end
  function self.add_read(r)
    local n = r.length()
    reserve(n)
    ffi.copy(buf + used, r.pointer(), n)
    used = used + n
  end
  function self.set()
    local req = get_request()
    if req == nil then return nil, "no request" end
    errlen[0] = 256
    if C.ngx_http_lua_ffi_var_set(req, name, name_len, scratch, buf, used, errbuf, errlen) ~= 0 then
      return nil, ffi.string(errbuf, errlen[0])
    end
    return true
  end
  -- What was added since reset() (tests).
  function self.string()
    return ffi.string(buf, used)
  end
  return self
end

-- One reader per variable name for the compiled rules of every generation (rampart.firewall_headers:
-- $http_<name>); past READERS_MAX names a new one each time.
local READERS_MAX = 256
local readers, reader_count = {}, 0
function _M.reader_of(name)
  local r = readers[name]
  if r then return r end
  r = reader(name)
  if reader_count < READERS_MAX then
    readers[name] = r
    reader_count = reader_count + 1
  end
  return r
end

-- The firewall's URL ($rampart_fw_url): read() once per request, then find(pattern) ("jo").
local url = reader("rampart_fw_url")
_M.read, _M.find, _M.string = url.read, url.find, url.string

-- The request's User-Agent, for the firewall's user-agent rules (find(pattern, "ijo")).
_M.user_agent = reader("http_user_agent")
-- The request's path ($uri), for the firewall's test of the challenge path (equals(path)) and the
-- auth groups' rules (equals, starts, find).
_M.uri = reader("uri")
-- The request's query ($args), for the cache key of a rule that keeps it (rampart.router).
_M.args = reader("args")

return _M

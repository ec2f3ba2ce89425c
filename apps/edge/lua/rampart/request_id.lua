-- The request's id, "<node>-<worker pid>-<worker start>-<serial>" (rampart.router sets it on every
-- request; docs/decisions.md "Traffic analytics at the edge"), written into $rampart_request_id
-- from a C buffer: no Lua string per request.
--
-- As a Lua string each id was a new string to intern, and LuaJIT's hash of it reads only its start,
-- its end and two points in the constant prefix: ids of one length whose serials end in the same
-- four digits share a bucket, and every new id walked the chain of the earlier ones the collector
-- had not swept yet. perf on the edge without rules (bench/edge, 10,000 domains) put ~8% of a
-- worker's CPU in lj_str_new's chain walk.
local ffi = require "ffi"
local base = require "resty.core.base"
require "resty.core.var" -- declares ngx_http_lua_ffi_var_set

local C = ffi.C
local get_request = base.get_request
local floor = math.floor

local _M = {}

local NAME = "rampart_request_id"
local ERR_SIZE = 256
-- nginx lower-cases the name into this buffer; its error, if any, goes after it.
local scratch = ffi.new("unsigned char[?]", #NAME + ERR_SIZE)
local errbuf = scratch + #NAME
local errlen = ffi.new("size_t[1]")

-- The prefix, then up to 20 digits of the serial (a double counts exactly to 2^53: 16 digits).
local PREFIX_MAX = 200
local buf = ffi.new("unsigned char[?]", PREFIX_MAX + 20)
local prefix_len = nil
local serial = 0
local digits = ffi.new("unsigned char[20]")

-- Sets this worker's prefix ("<node>-<pid>-<start>-"), once.
local function start(node)
  local prefix = node .. "-" .. ngx.worker.pid() .. "-" .. string.format("%x", floor(ngx.now())) .. "-"
  if #prefix > PREFIX_MAX then prefix = prefix:sub(1, PREFIX_MAX) end
  ffi.copy(buf, prefix, #prefix)
  prefix_len = #prefix
end

-- The next id of this worker into $rampart_request_id; `var` is ngx.var (its node name on the
-- first call: $rampart_node, or "edge").
function _M.next(var)
  if prefix_len == nil then start(var.rampart_node or "edge") end
  serial = serial + 1
  local n, count = serial, 0
  repeat
    local q = floor(n / 10)
    digits[count] = 48 + (n - q * 10)
    count = count + 1
    n = q
  until n == 0
  local at = prefix_len
  for i = count - 1, 0, -1 do
    buf[at] = digits[i]
    at = at + 1
  end
  local r = get_request()
  if r == nil then return end
  errlen[0] = ERR_SIZE
  if C.ngx_http_lua_ffi_var_set(r, NAME, #NAME, scratch, buf, at, errbuf, errlen) ~= 0 then
    error("rampart_request_id: " .. ffi.string(errbuf, errlen[0]))
  end
end

return _M

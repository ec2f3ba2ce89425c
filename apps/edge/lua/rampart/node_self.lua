-- The node's own listening sockets, which no customer origin may be: the public listen ports and
-- the layer-4 ports (after the port map) on the address nginx listens on, or, when it listens on
-- every address, on a loopback address or any of the node's own; an unspecified address (0.0.0.0,
-- ::) always counts. Other ports of loopback stay usable (test rigs; the control plane decides
-- whether private origins are allowed). Set once in the master (init_by_lua, from nginx.conf); the
-- balancer asks.
-- Addresses compare as 16 bytes, IPv4 as IPv4-mapped IPv6, and an IPv4 address embedded in an
-- IPv6 form (mapped, compatible, SIIT, 6to4, NAT64) counts as that IPv4 address.
local _M = {}

local byte, char, concat = string.byte, string.char, table.concat

local ports = {}
local addresses = {}
local every_address = true

local ZERO10 = ("\0"):rep(10)
local MAPPED_PREFIX = ZERO10 .. "\255\255"

local function v4_bytes(s)
  local parts = { s:match("^(%d%d?%d?)%.(%d%d?%d?)%.(%d%d?%d?)%.(%d%d?%d?)$") }
  if #parts ~= 4 then return nil end
  for i = 1, 4 do
    local n = tonumber(parts[i])
    if n > 255 then return nil end
    parts[i] = char(n)
  end
  return concat(parts)
end

local function groups(s, out)
  if s == "" then return true end
  for g in (s .. ":"):gmatch("([^:]*):") do
    if not g:match("^%x%x?%x?%x?$") then return false end
    local n = tonumber(g, 16)
    out[#out + 1] = char(math.floor(n / 256), n % 256)
  end
  return true
end

local function v6_bytes(s)
  local tail = ""
  local v4 = s:match(":(%d+%.%d+%.%d+%.%d+)$")
  if v4 then
    tail = v4_bytes(v4)
    if tail == nil then return nil end
    s = s:sub(1, #s - #v4)
    if s:sub(-2) ~= "::" then s = s:sub(1, -2) end -- "a:b:1.2.3.4" → "a:b"; "::1.2.3.4" → "::"
  end
  local want = v4 and 6 or 8
  local head, rest = s:match("^(.-)::(.*)$")
  local h, t = {}, {}
  if head then
    if rest:find("::", 1, true) then return nil end
    if not groups(head, h) or not groups(rest, t) or #h + #t >= want then return nil end
  else
    if not groups(s, h) or #h ~= want then return nil end
  end
  return concat(h) .. ("\0\0"):rep(want - #h - #t) .. concat(t) .. tail
end

-- 16 bytes for an IP literal (IPv4 as IPv4-mapped), nil when it is none.
function _M.bytes(ip)
  if type(ip) ~= "string" then return nil end
  local v4 = v4_bytes(ip)
  if v4 then return MAPPED_PREFIX .. v4 end
  if not ip:find(":", 1, true) then return nil end
  return v6_bytes(ip)
end

-- The IPv4 address (4 bytes) an address of 16 bytes stands for, or nil.
local function embedded_v4(b)
  if b:sub(1, 12) == MAPPED_PREFIX then return b:sub(13) end -- ::ffff:a.b.c.d
  if b:sub(1, 12) == ZERO10 .. "\0\0" then return b:sub(13) end -- ::a.b.c.d (and ::, ::1)
  if b:sub(1, 8) == ("\0"):rep(8) and b:sub(9, 12) == "\255\255\0\0" then return b:sub(13) end -- ::ffff:0:a.b.c.d
  if byte(b, 1) == 0x20 and byte(b, 2) == 0x02 then return b:sub(3, 6) end -- 2002:aabb:ccdd::/16
  if b:sub(1, 12) == "\0\100\255\155" .. ("\0"):rep(8) then return b:sub(13) end -- 64:ff9b::/96
  return nil
end

-- Whether nginx's listeners are reachable at `ip`: one of the addresses it listens on, unspecified,
-- or (listening on every address) loopback. An address that does not parse counts (refused rather
-- than guessed).
function _M.is_own_address(ip)
  local b = _M.bytes(ip)
  if b == nil then return true end
  if addresses[b] or b == ("\0"):rep(16) then return true end
  if every_address and b == ("\0"):rep(15) .. "\1" then return true end
  local v4 = embedded_v4(b)
  if v4 then
    local first = byte(v4, 1)
    if first == 0 or (every_address and first == 127) then return true end
    if addresses[MAPPED_PREFIX .. v4] then return true end
  end
  return false
end

function _M.is_own_port(port)
  return ports[port] == true
end

-- From the master's init: the node's listening ports, the addresses nginx listens on and whether
-- it listens on every address (then `own_addresses` are the machine's).
function _M.configure(own_ports, own_addresses, every)
  ports, addresses, every_address = {}, {}, every ~= false
  for _, p in ipairs(own_ports or {}) do ports[p] = true end
  for _, a in ipairs(own_addresses or {}) do
    local b = _M.bytes(a)
    if b then addresses[b] = true end
  end
end

return _M

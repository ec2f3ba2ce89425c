-- Charsets of a body for rampart.waf: what a server would decode before its application reads the
-- text, so the detectors see the same characters. UTF-16 and UTF-32 (little or big endian) are
-- recognised by a byte order mark, by a declared charset (the Content-Type's, or a multipart part's
-- own), or, without either, by where their NUL bytes fall in ASCII text ("<\0s\0c\0..." is
-- UTF-16LE: RFC 8259 §8.1's old detection for JSON, and what .NET and Java readers do); a UTF-8 byte
-- order mark is dropped. Text in those charsets is turned into UTF-8; anything else is left as it is.
local _M = {}

local byte, sub, lower, find, char, concat = string.byte, string.sub, string.lower, string.find, string.char,
  table.concat
local floor = math.floor

-- Declared names (lower-cased) and the encoding they mean; "utf-16"/"utf-32" without an order take
-- the byte order mark's, else the sniffed one, else big endian (RFC 2781 §4.3).
local DECLARED = {
  ["utf-16"] = "utf-16", ["utf16"] = "utf-16", ["ucs-2"] = "utf-16", ["unicode"] = "utf-16",
  ["utf-16le"] = "utf-16le", ["utf-16be"] = "utf-16be", ["ucs-2le"] = "utf-16le", ["ucs-2be"] = "utf-16be",
  ["unicodefffe"] = "utf-16be", ["utf-32"] = "utf-32", ["utf32"] = "utf-32", ["ucs-4"] = "utf-32",
  ["utf-32le"] = "utf-32le", ["utf-32be"] = "utf-32be",
}
_M.DECLARED = DECLARED

-- The charset parameter of a Content-Type (or a part's header), lower-cased, or nil.
function _M.declared(ctype)
  if not ctype or not find(ctype, "[Cc][Hh][Aa][Rr][Ss][Ee][Tt]") then return nil end
  local cs = lower(ctype):match("charset%s*=%s*\"?([%w_.:-]+)")
  return cs
end

-- The encoding of `s` (one of DECLARED's values resolved to an order, "utf-8-bom") and the length of
-- its byte order mark, or nil when it is none of them.
function _M.sniff(s, declared)
  local b1, b2, b3, b4 = byte(s, 1, 4)
  if b1 == 0xEF and b2 == 0xBB and b3 == 0xBF then return "utf-8-bom", 3 end
  if b1 == 0xFF and b2 == 0xFE and b3 == 0 and b4 == 0 then return "utf-32le", 4 end
  if b1 == 0 and b2 == 0 and b3 == 0xFE and b4 == 0xFF then return "utf-32be", 4 end
  if b1 == 0xFF and b2 == 0xFE then return "utf-16le", 2 end
  if b1 == 0xFE and b2 == 0xFF then return "utf-16be", 2 end
  local want = declared and DECLARED[declared]
  if want == "utf-16le" or want == "utf-16be" or want == "utf-32le" or want == "utf-32be" then return want, 0 end
  -- where the NULs of the first bytes fall (ASCII text in a wide charset is half or three quarters NUL)
  local n = #s
  -- (a plain search: a class pattern is tried byte by byte)
  if n < 4 or (find(s, "\0", 1, true) or 257) > 256 then
    if want == "utf-16" then return "utf-16be", 0 end
    if want == "utf-32" then return "utf-32be", 0 end
    return nil
  end
  local m = n < 256 and n or 256
  m = m - m % 4
  local z = { 0, 0, 0, 0 }
  for i = 1, m do
    if byte(s, i) == 0 then
      local k = (i - 1) % 4 + 1
      z[k] = z[k] + 1
    end
  end
  local q = m / 4
  if z[2] == q and z[3] == q and z[4] == q and z[1] < q then return "utf-32le", 0 end
  if z[1] == q and z[2] == q and z[3] == q and z[4] < q then return "utf-32be", 0 end
  local odd, even = z[1] + z[3], z[2] + z[4]
  if even >= q * 1.5 and odd < q * 0.5 then return "utf-16le", 0 end
  if odd >= q * 1.5 and even < q * 0.5 then return "utf-16be", 0 end
  if want == "utf-16" then return "utf-16be", 0 end
  if want == "utf-32" then return "utf-32be", 0 end
  return nil
end

local function utf8(cp)
  if cp < 0x80 then return char(cp) end
  if cp < 0x800 then return char(0xC0 + floor(cp / 64), 0x80 + cp % 64) end
  if cp < 0x10000 then return char(0xE0 + floor(cp / 4096), 0x80 + floor(cp / 64) % 64, 0x80 + cp % 64) end
  if cp < 0x110000 then
    return char(0xF0 + floor(cp / 262144), 0x80 + floor(cp / 4096) % 64, 0x80 + floor(cp / 64) % 64, 0x80 + cp % 64)
  end
  return "\239\191\189" -- U+FFFD
end

-- `s` from `enc` (sniff's answer) to UTF-8, from byte `from` (after the byte order mark).
function _M.to_utf8(s, enc, from)
  from = from or 1
  if enc == "utf-8-bom" then return sub(s, from) end
  local out, n = {}, 0
  local len = #s
  if enc == "utf-16le" or enc == "utf-16be" then
    local le = enc == "utf-16le"
    local i = from
    while i + 1 <= len do
      local a, b = byte(s, i, i + 1)
      local u = le and a + b * 256 or a * 256 + b
      i = i + 2
      if u >= 0xD800 and u <= 0xDBFF and i + 1 <= len then
        local c, d = byte(s, i, i + 1)
        local lo = le and c + d * 256 or c * 256 + d
        if lo >= 0xDC00 and lo <= 0xDFFF then
          u = 0x10000 + (u - 0xD800) * 1024 + (lo - 0xDC00)
          i = i + 2
        end
      end
      n = n + 1
      out[n] = utf8(u)
    end
  elseif enc == "utf-32le" or enc == "utf-32be" then
    local le = enc == "utf-32le"
    for i = from, len - 3, 4 do
      local a, b, c, d = byte(s, i, i + 3)
      n = n + 1
      out[n] = utf8(le and a + b * 256 + c * 65536 + d * 16777216 or d + c * 256 + b * 65536 + a * 16777216)
    end
  else
    return s
  end
  return concat(out)
end

-- `s` decoded when it is in one of these charsets (declared, marked or sniffed), else `s` itself;
-- and whether it was decoded.
function _M.decode(s, declared)
  local enc, bom = _M.sniff(s, declared)
  if not enc then return s, false end
  return _M.to_utf8(s, enc, bom + 1), true
end

return _M

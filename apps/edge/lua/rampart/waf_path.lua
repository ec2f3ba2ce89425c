-- A value read as a file system path would be by the server or the application that opens it
-- (rampart.waf, group traversal), after rampart.waf_decode's decodings (URL and double URL,
-- %uXXXX, overlong UTF-8 "%c0%ae", HTML entities, full-width forms): look-alike dots and slashes
-- (U+2024 one dot leader, U+2025 two dot leader, U+FE52 small full stop, U+2215 division slash,
-- U+2044 fraction slash, U+29F5 reverse solidus operator) as the ASCII they pass for on servers
-- that normalise Unicode; backslashes as slashes (Windows, IIS, Tomcat); path parameters dropped
-- from a segment ("..;/" and "..;jsessionid=x/" are "../" to Tomcat and Spring behind a proxy);
-- "/./" and repeated slashes collapsed; runs of three or more dots before a slash read as a climb
-- ("....//" is what a filter that strips "../" once leaves "../" of). Sources: OWASP WSTG-ATHZ-01,
-- PayloadsAllTheThings "Directory Traversal", dotdotpwn's encodings, Orange Tsai's "Breaking
-- Parser Logic" (Black Hat USA 2018).
local _M = {}

local find, gsub, sub, byte, concat = string.find, string.gsub, string.sub, string.byte, table.concat

local LOOKALIKE = {
  ["\226\128\164"] = ".", ["\226\128\165"] = "..", ["\239\185\146"] = ".", ["\226\136\149"] = "/",
  ["\226\129\132"] = "/", ["\226\167\181"] = "/",
}

-- Runs of slashes as one (gsub(n, "//+", "/") by plain searches: URLs hold "//").
local function one_slash(n)
  local parts, pos, i = {}, 1, find(n, "//", 1, true)
  while i do
    parts[#parts + 1] = sub(n, pos, i)
    pos = i + 2
    while byte(n, pos) == 47 do pos = pos + 1 end
    i = find(n, "//", pos, true)
  end
  parts[#parts + 1] = sub(n, pos)
  return concat(parts)
end

-- The normalised path, or nil when it reads as it is written.
function _M.normalise(l)
  local n = l
  if find(n, "\226", 1, true) or find(n, "\239", 1, true) then n = gsub(n, "[\226\239][\128-\191][\128-\191]", LOOKALIKE) end
  if find(n, "\\", 1, true) then n = gsub(n, "\\", "/") end
  -- (each pass behind a plain search for what it replaces: a pattern pass is tried at every byte,
  -- and URLs, "https://...", hold "//" without "/./" or "..;")
  if find(n, ".;", 1, true) then n = gsub(n, "(%.%.?);[^/]*", "%1") end
  if find(n, "//", 1, true) or find(n, "/./", 1, true) then
    if find(n, "//", 1, true) then n = one_slash(n) end
    for _ = 1, 8 do
      if not find(n, "/./", 1, true) then break end
      n = gsub(n, "/%./", "/")
    end
    if byte(n, 1) == 46 and byte(n, 2) == 47 then n = sub(n, 3) end
  end
  if find(n, "...", 1, true) then n = gsub(n, "%.%.%.+/", "../") end
  if n == l then return nil end
  return n
end

return _M

-- The challenges (packages/contract/src/edge/challenge.ts; docs/decisions.md "Challenges at the
-- edge"): self-hosted pages that a blacklist or user-agent rule answers instead of blocking, and
-- the pass cookie that lets a client that solved one through the site's challenge rules.
--
-- Pass cookie `rampart_pass` = "<site>.<key id>.<expiry>.<mac>", mac = HMAC-SHA256 under the key
-- of that id over "p|<site>|<key id>|<expiry>|<client address, binary>", first 16 bytes, hex. The
-- keys (previous, current, next period) come with the data plane; the node checks a pass itself.
-- A cookie from another address, for another site, with another expiry or mac, signed with a key
-- the node no longer has, or expired, is no pass: the client is challenged again.
--
-- Challenge token (in the page, or the redirect's URL) =
-- "<kind>.<site>.<rule>.<key id>.<expiry>.<nonce>.<bits>.<mac>", mac over
-- "t|<kind>|<site>|<rule>|<key id>|<expiry>|<nonce>|<bits>|<client address>": valid for
-- TOKEN_SECONDS, from the address it was given to, for its kind and site. <rule> is the anti-CC rule
-- that asked (0 for the lists and user-agent rules): passing takes back the error its challenge
-- counted (rampart.firewall_frequency). <bits> is the proof of work the zone asked when the token
-- was issued (the data plane's limits.challengeWorkBits). The node decides only on what it can
-- check (docs/decisions "new-harden-challenge-work"): nothing a page's script reports about time,
-- pointer moves or trusted events counts. The answers come to CHALLENGE_PATH:
--   s  five-second shield: a proof of work, n such that SHA-256("<nonce>:<n>") starts with <bits>
--      zero bits (the page's script finds it; 21 bits: ~2 million hashes, ~0.8 s in Chromium)
--   c  click to verify: the same proof of work, which the page computes while the person reads
--      and sends on the click
--   r  redirect verification: a 302 to CHALLENGE_PATH that sets a probe cookie holding the nonce;
--      the follow-up must carry it (the client follows redirects and keeps cookies)
--   k  code: the characters of an image from the node's pool (rampart.challenge_pool), any case
--   d  slider: the piece's offset `n` within SLIDER_TOLERANCE px of the gap the node's pool entry
--      placed, and the same proof of work `w`
-- The code and slider tokens name their pool entry in the nonce ("<pool id, 8 hex><entry, 4 hex>
-- <random, 20 hex>"); the page loads the entry's images from CHALLENGE_PATH?i=<token>[&p=b|p]; the
-- answer stays on the node. Each of their tokens takes one answer (rampart_challenge_used): guessing
-- again needs a new challenge, which counts toward the anti-CC error limit like every challenge.
-- Without a pool on the node (the agent has not pushed one yet) they serve the shield instead.
-- Passing sets the pass cookie and sends the client back to the page it asked for (a path on the
-- same host only). Cost: nothing for a site without challenge rules; with them, one cookie read
-- per request and, when the cookie is present, one HMAC.
local ffi = require "ffi"
local store = require "rampart.store"
local pages = require "rampart.pages"
local pool = require "rampart.challenge_pool"
local html = require "rampart.challenge_pages"
local request_url = require "rampart.request_url"

local _M = {}

ffi.cdef [[
typedef struct evp_md_st RAMPART_EVP_MD;
const RAMPART_EVP_MD *EVP_sha256(void);
unsigned char *HMAC(const RAMPART_EVP_MD *evp_md, const void *key, int key_len, const unsigned char *d,
                    size_t n, unsigned char *md, unsigned int *md_len);
unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md);
int RAND_bytes(unsigned char *buf, int num);
]]
local C = ffi.C
local digest = ffi.new("unsigned char[32]")
local digest_len = ffi.new("unsigned int[1]")
local nonce_buf = ffi.new("unsigned char[16]")
local sha256_md = C.EVP_sha256()

local byte, char, format, sub, find, concat = string.byte, string.char, string.format, string.sub, string.find, table.concat
local floor, now = math.floor, ngx.time

_M.PATH = "/.rampart/challenge"
-- The challenge of each challenging action (packages/contract/src/edge/challenge.ts EDGE_CHALLENGES):
-- its letter in routes and tokens.
_M.LETTER = { shield = "s", click = "c", redirect = "r", code = "k", slider = "d" }
local COOKIE, PROBE = "rampart_pass", "rampart_probe"
local PERIOD_SECONDS = 21600
local TOKEN_SECONDS = 300
-- The proof of work's bits (packages/contract/src/edge/challenge.ts CHALLENGE_WORK_BITS_*).
local WORK_BITS_MIN, WORK_BITS_MAX, WORK_BITS_DEFAULT = 16, 24, 21
local RETURN_MAX = 2048
-- The longest pass cookie the edge signs: three numbers of 20 digits at most, a 32-digit mac.
local PASS_MAX = 128
local pass_cookie = request_url.reader("cookie_rampart_pass")
local SLIDER_TOLERANCE = 4
local used = ngx.shared.rampart_challenge_used

local function hex(s)
  return (s:gsub(".", function(c) return format("%02x", byte(c)) end))
end

local HEX = {}
for i = 0, 255 do HEX[format("%02x", i)] = char(i) end
-- Hex → bytes (keys here, address ranges in rampart.firewall).
local function unhex(h)
  return (h:gsub("%x%x", HEX))
end
_M.unhex = unhex

local function hmac16(key, data)
  C.HMAC(sha256_md, key, #key, data, #data, digest, digest_len)
  return hex(ffi.string(digest, 16))
end

-- Whether SHA-256(s) starts with `bits` zero bits.
local function leading_zeros(s, bits)
  C.SHA256(s, #s, digest)
  local i = 0
  while bits >= 8 do
    if digest[i] ~= 0 then return false end
    i, bits = i + 1, bits - 8
  end
  return bits == 0 or digest[i] < 2 ^ (8 - bits)
end

local function random_hex()
  if C.RAND_bytes(nonce_buf, 16) ~= 1 then return nil end
  return hex(ffi.string(nonce_buf, 16))
end

-- The keys of generation `gen`, read once per worker and generation:
-- { [id] = binary secret }, the id that signs now, the pass lifetime.
-- And the zone's proof of work (the meta's limits.challengeWorkBits, checked by rampart.validate).
local keys_gen, keys, pass_seconds, work_bits = nil, {}, 1800, WORK_BITS_DEFAULT
local function load(gen)
  if gen == keys_gen then return end
  local raw = store.challenge_keys(gen)
  keys, pass_seconds = {}, 1800
  if type(raw) == "table" and type(raw.keys) == "table" then
    for _, k in ipairs(raw.keys) do keys[k.id] = unhex(k.secret) end
    pass_seconds = tonumber(raw.passSeconds) or 1800
  end
  local meta = store.meta(gen)
  local limits = type(meta) == "table" and type(meta.limits) == "table" and meta.limits or {}
  work_bits = tonumber(limits.challengeWorkBits) or WORK_BITS_DEFAULT
  keys_gen = gen
end

-- The key that signs now: the current period's, else the newest older one; nil when none.
local function signing_key()
  local period = floor(now() / PERIOD_SECONDS)
  for id = period, period - 2, -1 do
    if keys[id] then return id, keys[id] end
  end
  return nil
end

-- The client address as the firewall matches it (binary, 4 or 16 bytes): an IPv4 client on an IPv6
-- socket (::ffff:a.b.c.d) is the IPv4 address.
local V4_MAPPED = "\0\0\0\0\0\0\0\0\0\0\255\255"
function _M.client_address(var)
  local addr = var.binary_remote_addr
  if #addr == 16 and sub(addr, 1, 12) == V4_MAPPED then return sub(addr, 13) end
  return addr
end

-- Whether the request carries a valid pass for `site` from `addr` (rampart.firewall, per request
-- of a site with challenge rules).
-- The cookie is read in place (rampart.request_url) and becomes a Lua string only when it is no
-- longer than a pass the edge signs (PASS_MAX): a longer one is none.
function _M.passed(site, var, addr, gen)
  local len = pass_cookie.read()
  if len == nil or len > PASS_MAX then return false end
  local cookie = pass_cookie.string()
  load(gen)
  local s, kid, exp, mac = cookie:match("^(%d+)%.(%d+)%.(%d+)%.(%x+)$")
  if s == nil or tonumber(s) ~= site or tonumber(exp) < now() then return false end
  local key = keys[tonumber(kid)]
  if key == nil then return false end
  return hmac16(key, concat({ "p", s, kid, exp, addr }, "|")) == mac
end

local function token(kind, site, rule, addr, nonce)
  local kid, key = signing_key()
  nonce = nonce or random_hex()
  if kid == nil or nonce == nil then return nil end
  local exp = tostring(now() + TOKEN_SECONDS)
  local bits = tostring(work_bits)
  local fields = { kind, tostring(site), rule, tostring(kid), exp, nonce, bits }
  local mac = hmac16(key, concat({ "t", fields[1], fields[2], rule, fields[4], exp, nonce, bits, addr }, "|"))
  return concat(fields, ".") .. "." .. mac, nonce
end

-- The token's kind, nonce, rule and work bits when it is valid for `site` and `addr` now, else nil.
local function check_token(t, site, addr)
  if type(t) ~= "string" or #t > 200 then return nil end
  local kind, s, rule, kid, exp, nonce, bits, mac =
    t:match("^([scrkd])%.(%d+)%.(%d+)%.(%d+)%.(%d+)%.(%x+)%.(%d+)%.(%x+)$")
  if kind == nil or tonumber(s) ~= site or tonumber(exp) < now() then return nil end
  local key = keys[tonumber(kid)]
  if key == nil or hmac16(key, concat({ "t", kind, s, rule, kid, exp, nonce, bits, addr }, "|")) ~= mac then
    return nil
  end
  bits = tonumber(bits)
  if bits < WORK_BITS_MIN or bits > WORK_BITS_MAX then return nil end
  return kind, nonce, rule, bits
end

-- A path on this host to go back to: "/…" but not "//…" or "/\…", printable, bounded; else "/".
local function safe_return(r)
  if type(r) ~= "string" or #r > RETURN_MAX or byte(r, 1) ~= 47 then return "/" end
  local second = byte(r, 2)
  if second == 47 or second == 92 then return "/" end
  if find(r, "[%z\1-\32\127-\255]") then return "/" end
  return r
end

-- The request's own path and query to go back to, read in place (rampart.request_url): one longer
-- than RETURN_MAX is "/" without becoming a Lua string.
local request_uri = request_url.reader("request_uri")
local function own_return()
  local len = request_uri.read()
  if len == nil or len > RETURN_MAX then return "/" end
  return safe_return(request_uri.string())
end
_M.own_return, _M.safe_return = own_return, safe_return -- for the tests

local function send(status, body)
  ngx.status = status
  local header = ngx.header
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  header["Vary"] = "Accept-Language"
  ngx.print(body)
  return ngx.exit(ngx.HTTP_OK)
end

local function cookie_attributes(var, max_age)
  return "; Path=/; Max-Age=" .. max_age .. "; HttpOnly; SameSite=Lax" .. (var.scheme == "https" and "; Secure" or "")
end

-- Answers a request that a challenge rule caught: kind "s", "c", "r", "k" or "d" for `site`, asked
-- by the anti-CC rule `rule` ("0": a list or user-agent rule).
local function challenge(kind, site, rule, var, gen)
  load(gen)
  local addr = _M.client_address(var)
  local nonce, y
  if kind == "k" or kind == "d" then
    local random = random_hex()
    local id, index = pool.pick(kind, tonumber(sub(random or "0000", 1, 4), 16))
    if id == nil or random == nil then
      -- No pool on the node yet: the shield, a challenge that needs no images.
      kind = "s"
    else
      nonce = id .. format("%04x", index) .. sub(random, 13)
      if kind == "d" then y = select(2, pool.answer(id, "d", index)) end
      if kind == "d" and y == nil then kind, nonce = "s", nil end
    end
  end
  local t
  t, nonce = token(kind, site, rule, addr, nonce)
  -- No key to sign with (a data plane without keys; the contract refuses one): deny.
  if t == nil then return pages.send(4030) end
  local r = own_return()
  if kind == "r" then
    ngx.header["Set-Cookie"] = PROBE .. "=" .. nonce .. cookie_attributes(var, TOKEN_SECONDS)
    ngx.header["Cache-Control"] = "no-store"
    return ngx.redirect(_M.PATH .. "?t=" .. t .. "&r=" .. ngx.escape_uri(r), 302)
  end
  if kind == "c" then return send(403, html.click(_M.PATH, t, nonce, work_bits, r)) end
  if kind == "k" then return send(403, html.code(_M.PATH, t, r)) end
  if kind == "d" then return send(403, html.slider(_M.PATH, t, nonce, work_bits, r, y)) end
  return send(403, html.shield(_M.PATH, t, nonce, work_bits, r))
end

-- The pool entry a code or slider nonce names: pool id, index.
local function entry_of(nonce)
  return sub(nonce, 1, 8), tonumber(sub(nonce, 9, 12), 16)
end

-- Whether the answer in `args` passes the code or slider challenge with `nonce`. The token takes
-- one answer: a second one (right or wrong) fails.
local function pool_answer_ok(kind, nonce, args)
  local ok, err, forcible = used:add(nonce, true, TOKEN_SECONDS)
  if not ok then return false end
  if forcible then ngx.log(ngx.WARN, "rampart challenge: rampart_challenge_used is full; evicting older answers") end
  local id, index = entry_of(nonce)
  local n = args.n
  if type(n) ~= "string" or #n > 16 then return false end
  if kind == "k" then
    local want = pool.answer(id, "k", index)
    return want ~= nil and n:gsub("%s", ""):upper() == want
  end
  local x = pool.answer(id, "d", index)
  return x ~= nil and find(n, "^%d+$") ~= nil and math.abs(tonumber(n) - x) <= SLIDER_TOLERANCE
end

-- Whether `w` is a proof of work for `nonce` at `bits`.
local function work_ok(nonce, w, bits)
  if type(w) ~= "string" or not find(w, "^%d+$") or #w > 12 then return false end
  return leading_zeros(nonce .. ":" .. w, bits)
end

-- Answers CHALLENGE_PATH?i=<token>[&p=b|p]: an image of the code or slider entry the token names,
-- for the address and site the token was given to.
local function serve_image(site, var, args)
  local kind, nonce = check_token(args.i, site, _M.client_address(var))
  local png
  if kind == "k" or kind == "d" then
    local id, index = entry_of(nonce)
    png = pool.image(id, kind, index, args.p)
  end
  if png == nil then return pages.send(404) end
  ngx.header["Content-Type"] = "image/png"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(png)
  return ngx.exit(ngx.HTTP_OK)
end

-- Whether the answer in `args` passes the challenge of `kind` with `nonce` and work `bits`. The
-- slider's work is checked before its one answer is spent.
local function answer_ok(kind, nonce, bits, args, var)
  if kind == "r" then return var.cookie_rampart_probe == nonce end
  if kind == "k" then return pool_answer_ok(kind, nonce, args) end
  if kind == "d" then return work_ok(nonce, args.w, bits) and pool_answer_ok(kind, nonce, args) end
  return work_ok(nonce, args.n, bits)
end

-- Answers a request to PATH on a site with challenge rules: checks the answer, and on success sets
-- the pass cookie and sends the client back to the page it asked for.
local function verify(site, var, gen)
  load(gen)
  local method = var.request_method
  local args
  if method == "POST" then
    ngx.req.read_body()
    args = ngx.req.get_post_args(8)
  else
    args = ngx.req.get_uri_args(8)
  end
  -- nil when the body went to a temporary file (larger than any answer): no answer.
  args = args or {}
  if method == "GET" and args.i ~= nil then return serve_image(site, var, args) end
  local r = safe_return(type(args.r) == "string" and args.r or "/")
  local addr = _M.client_address(var)
  local kind, nonce, rule, bits = check_token(args.t, site, addr)
  var.rampart_fw_kind = "challenge"
  if kind == nil or not answer_ok(kind, nonce, bits, args, var) then
    var.rampart_fw_action = "fail"
    return send(403, html.failed(r))
  end
  local kid, key = signing_key()
  if kid == nil then return send(403, html.failed(r)) end
  local exp = tostring(now() + pass_seconds)
  local s = tostring(site)
  local mac = hmac16(key, concat({ "p", s, tostring(kid), exp, addr }, "|"))
  local attributes = cookie_attributes(var, pass_seconds)
  local cookies = { COOKIE .. "=" .. concat({ s, tostring(kid), exp, mac }, ".") .. attributes }
  if kind == "r" then cookies[2] = PROBE .. "=" .. cookie_attributes(var, 0) end
  ngx.header["Set-Cookie"] = cookies
  ngx.header["Cache-Control"] = "no-store"
  var.rampart_fw_action = "pass"
  if rule ~= "0" then
    var.rampart_fw_rule = rule
    if _M.on_pass then _M.on_pass(rule, addr) end
  end
  return ngx.redirect(r, method == "POST" and 303 or 302)
end

-- The route of a challenge (rampart.router): kind s, c or r, the site, the anti-CC rule or 0.
function _M.route(kind, site, rule)
  return "c" .. kind .. site .. "." .. rule
end

-- Set by rampart.firewall_frequency: called with an anti-CC rule id and the client address when a
-- client passes the challenge that rule asked for.
_M.on_pass = nil

-- elsewhere() in rampart.router: route "c<kind><site>.<rule>" — kind s, c or r serves that
-- challenge; "cv<site>" checks an answer.
function _M.act(route, var)
  local kind = sub(route, 2, 2)
  local site, rule = route:match("^(%d+)%.?(%d*)$", 3)
  site = tonumber(site)
  local gen = store.generation()
  if gen == nil or site == nil then return pages.send(503) end
  if kind == "v" then return verify(site, var, gen) end
  return challenge(kind, site, rule ~= "" and rule or "0", var, gen)
end

-- For tests (apps/edge/test): the proof-of-work check the node applies.
_M.leading_zeros = leading_zeros

return _M

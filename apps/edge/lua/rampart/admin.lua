-- The admin endpoint (content_by_lua on nginx's admin server, a unix socket in a directory only the
-- agent's user can enter). Every request carries `Authorization: Bearer <the node's admin secret>`:
-- the secret file (written by the agent, readable by it and root only) is read by the master at
-- start and reload (configure, from init_by_lua) and lives in the workers' memory only.
--   PUT /config          the whole data-plane document → {version, domains, certificates, generation, hash}
--   GET /config/version  the active {version, generation, domains, certificates, hash}
--   GET /config/stats    keys per generation in the shared dict, dict capacity and free space
--   POST /cache/purge    {urls} → {results} (rampart.purge)
--   GET /blocklist/events    pops up to 1,000 queued block reports → {events, dropped, full} (rampart.blocklist)
--   POST /blocklist/unblock  {entries: [{siteId, ip}]} → {removed}: those blocks end now
--   PUT /challenge/pool      the agent's image pool {id, code, slider} → {id, codes, sliders} (rampart.challenge_pool)
--   GET /challenge/pool      the current pool's {id, age}; 404 when the node has none
-- A push writes a NEW generation, switches `current` to it, then retires the previous one: a
-- request reads `current` once and sees the whole old or the whole new document, never a mix.
local cjson = require "cjson.safe"
local store = require "rampart.store"
local validate = require "rampart.validate"

local _M = {}

local dict = store.dict
local LOCK_TTL = 120
local YIELD_EVERY = 1000
local SECRET_RE = [[^[0-9a-f]{64}\z]]

-- The admin secret (set in the master) and its SHA-1 (computed once per worker): requests are
-- compared by digest, so the comparison's time says nothing about the secret.
local secret, secret_digest = nil, nil

local function hex(bin)
  return (bin:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- init_by_lua (master): reads the admin secret. A missing or malformed file stops nginx from
-- starting (nginx -t reports it), rather than leaving an endpoint nobody can use.
function _M.configure(secret_file)
  local file, err = io.open(secret_file, "rb")
  if file == nil then error("rampart admin: cannot read the admin secret: " .. tostring(err)) end
  local text = file:read("*a") or ""
  file:close()
  text = text:gsub("%s+$", "")
  if not ngx.re.find(text, SECRET_RE, "jo") then error("rampart admin: " .. secret_file .. " holds no admin secret") end
  secret, secret_digest = text, nil
end

local function authorized()
  if secret == nil then return false end
  local given = ngx.var.http_authorization
  if type(given) ~= "string" or given:sub(1, 7) ~= "Bearer " then return false end
  if secret_digest == nil then secret_digest = ngx.sha1_bin(secret) end
  return ngx.sha1_bin(given:sub(8)) == secret_digest
end

local function respond(status, body)
  ngx.status = status
  ngx.header["Content-Type"] = "application/json"
  ngx.header["Cache-Control"] = "no-store"
  ngx.say(cjson.encode(body))
  return ngx.exit(ngx.HTTP_OK)
end

local function read_body()
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  if body then return body end
  local path = ngx.req.get_body_file()
  if path == nil then return nil end
  local file = io.open(path, "rb")
  if file == nil then return nil end
  body = file:read("*a")
  file:close()
  return body
end

-- Lets the worker serve other requests during a long push (50,000 domains take about a second).
local function yield()
  ngx.sleep(0)
end

local function delete_keys(keys)
  for i, key in ipairs(keys) do
    dict:delete(key)
    if i % YIELD_EVERY == 0 then yield() end
  end
end

-- Every key of generation `gen`, found by scanning the dict: only for a push that died half-way.
local function sweep(gen)
  local stale = {}
  for _, key in ipairs(dict:get_keys(0)) do
    if store.generation_of(key) == gen then stale[#stale + 1] = key end
  end
  delete_keys(stale)
end

local function retire(gen)
  local keys = cjson.decode(dict:get(store.keys_key(gen)) or "")
  if type(keys) == "table" then
    delete_keys(keys)
  else
    sweep(gen)
  end
  dict:delete(store.keys_key(gen))
end

-- Writes `doc` as a new generation and activates it. `hash`: SHA-1 (hex) of the document's bytes,
-- kept with it so the agent can tell that the data plane is the one it pushed. Returns status, body.
local function apply(doc, hash)
  local interrupted = dict:get("pending")
  if interrupted then sweep(interrupted) end

  local gen = assert(dict:incr("gen_seq", 1, 0))
  assert(dict:safe_set("pending", gen))
  local keys = {}
  local function put(key, value)
    local ok, err = dict:safe_set(key, value)
    if ok then keys[#keys + 1] = key end
    return ok, err
  end

  local ok, err = true, nil
  for i, d in ipairs(doc.domains) do
    ok, err = put(store.domain_key(gen, d.name), store.encode_entry(i, d))
    if not ok then break end
    if i % YIELD_EVERY == 0 then yield() end
  end
  for i, c in ipairs(doc.certificates) do
    if not ok then break end
    ok, err = put(store.certificate_key(gen, c.id), store.encode_entry(i, { cert = c.cert, key = c.key }))
    if i % YIELD_EVERY == 0 then yield() end
  end
  for i, c in ipairs(doc.caches) do
    if not ok then break end
    ok, err = put(store.cache_key(gen, c.id), store.encode_entry(i, c))
    if i % YIELD_EVERY == 0 then yield() end
  end
  for i, m in ipairs(doc.modules) do
    if not ok then break end
    ok, err = put(store.module_key(gen, m.id), store.encode_entry(i, m))
    if i % YIELD_EVERY == 0 then yield() end
  end
  for i, c in ipairs(doc.settings) do
    if not ok then break end
    ok, err = put(store.settings_key(gen, c.id), store.encode_entry(i, c))
    if i % YIELD_EVERY == 0 then yield() end
  end
  for i, f in ipairs(doc.firewalls) do
    if not ok then break end
    ok, err = put(store.firewall_key(gen, f.id), store.encode_entry(i, f))
    if i % YIELD_EVERY == 0 then yield() end
  end
  for i, a in ipairs(doc.acmeChallenges) do
    if not ok then break end
    ok, err = put(store.acme_key(gen, a.host, a.token), a.keyAuthorization)
    if i % YIELD_EVERY == 0 then yield() end
  end
  -- Marks a generation with challenges (rampart.router looks only then).
  if ok and #doc.acmeChallenges > 0 then ok, err = put(store.acme_key(gen, "*", "any"), "1") end
  local meta = {
    version = doc.version, generation = gen, domains = #doc.domains, certificates = #doc.certificates,
    cacheEpoch = doc.cacheEpoch, limits = doc.limits, hash = hash, geoDatabase = doc.geoDatabase,
    abuseIPs = doc.abuseIPs,
  }
  -- Not in the meta answer of GET /config (rampart.challenge reads them from the dict); a document
  -- without challenge keys (no site of the node challenges) writes no entry.
  if ok and #doc.challenge.keys > 0 then ok, err = put(store.challenge_key(gen), cjson.encode(doc.challenge)) end
  -- The operator's default pages (rampart.pages), when it has any.
  if ok and #doc.errorPages > 0 then ok, err = put(store.pages_key(gen), cjson.encode(doc.errorPages)) end
  if ok then ok, err = put(store.meta_key(gen), cjson.encode(meta)) end
  if ok then
    keys[#keys + 1] = store.keys_key(gen)
    ok, err = dict:safe_set(store.keys_key(gen), cjson.encode(keys))
  end

  local previous = store.generation()
  if ok then ok, err = dict:safe_set("current", gen) end
  if not ok then
    delete_keys(keys)
    dict:delete("pending")
    ngx.log(ngx.ERR, "rampart admin: version ", doc.version, " refused, generation ", gen, " aborted: ", err)
    if err == "no memory" then
      return 507, { error = "the data plane does not fit in the shared dict (no memory)", field = "(document)" }
    end
    return 500, { error = "cannot store the data plane: " .. tostring(err) }
  end
  dict:delete("pending")

  if previous then retire(previous) end
  ngx.log(ngx.NOTICE, "rampart admin: version ", doc.version, " active as generation ", gen,
    " (", meta.domains, " domains, ", meta.certificates, " certificates)")
  return 200, meta
end

local function put_config()
  local body = read_body()
  if body == nil or body == "" then return respond(400, { error = "empty body", field = "(document)" }) end
  local decoded, decode_err = cjson.decode(body)
  if decoded == nil then return respond(400, { error = "invalid JSON: " .. decode_err, field = "(document)" }) end
  local doc, field, reason = validate.document(decoded)
  if doc == nil then return respond(400, { error = reason, field = field }) end

  if not dict:safe_add("push_lock", ngx.worker.pid(), LOCK_TTL) then
    return respond(409, { error = "another push is in progress" })
  end
  local ok, status, answer = pcall(apply, doc, hex(ngx.sha1_bin(body)))
  dict:delete("push_lock")
  if not ok then
    ngx.log(ngx.ERR, "rampart admin: push failed: ", status)
    return respond(500, { error = "push failed" })
  end
  return respond(status, answer)
end

local function active_meta()
  local gen = store.generation()
  if gen == nil then return nil end
  local meta = cjson.decode(dict:get(store.meta_key(gen)) or "")
  return type(meta) == "table" and meta or nil
end

local function stats()
  local generations, total = {}, 0
  for _, key in ipairs(dict:get_keys(0)) do
    total = total + 1
    local gen = store.generation_of(key)
    if gen then generations[tostring(gen)] = (generations[tostring(gen)] or 0) + 1 end
  end
  local meta = active_meta()
  return respond(200, {
    generation = store.generation() or cjson.null,
    version = meta and meta.version or cjson.null,
    keys = total,
    generations = generations, -- string keys: always a JSON object, {} when empty
    capacity = dict:capacity(),
    free = dict:free_space(),
  })
end

local function purge()
  local decoded = cjson.decode(read_body() or "")
  if type(decoded) ~= "table" then return respond(400, { error = "invalid JSON", field = "(body)" }) end
  local results, reason = require("rampart.purge").urls(decoded.urls)
  if results == nil then return respond(400, { error = reason, field = "urls" }) end
  return respond(200, { results = results })
end

local function unblock()
  local decoded = cjson.decode(read_body() or "")
  local removed, field, reason = require("rampart.blocklist").unblock(decoded)
  if removed == nil then return respond(400, { error = reason, field = field }) end
  return respond(200, { removed = removed })
end

local function put_pool()
  local decoded = cjson.decode(read_body() or "")
  local answer, field, reason = require("rampart.challenge_pool").put(decoded)
  if answer == nil then return respond(400, { error = reason, field = field }) end
  return respond(200, answer)
end

local function pool_status()
  local status = require("rampart.challenge_pool").status()
  if status == nil then return respond(404, { error = "no challenge pool pushed yet" }) end
  return respond(200, status)
end

local function block_events()
  ngx.status = 200
  ngx.header["Content-Type"] = "application/json"
  ngx.header["Cache-Control"] = "no-store"
  ngx.say(require("rampart.blocklist").pop())
  return ngx.exit(ngx.HTTP_OK)
end

function _M.handle()
  if ngx.var.remote_addr ~= "unix:" then return respond(403, { error = "admin socket only" }) end
  if not authorized() then return respond(401, { error = "admin secret required" }) end
  local method, uri = ngx.req.get_method(), ngx.var.uri
  if uri == "/config" and method == "PUT" then return put_config() end
  if uri == "/config/version" and method == "GET" then
    local meta = active_meta()
    if meta == nil then return respond(404, { error = "no data plane pushed yet" }) end
    return respond(200, meta)
  end
  if uri == "/config/stats" and method == "GET" then return stats() end
  if uri == "/cache/purge" and method == "POST" then return purge() end
  if uri == "/blocklist/events" and method == "GET" then return block_events() end
  if uri == "/blocklist/unblock" and method == "POST" then return unblock() end
  if uri == "/challenge/pool" and method == "PUT" then return put_pool() end
  if uri == "/challenge/pool" and method == "GET" then return pool_status() end
  return respond(404, { error = "not found" })
end

return _M

-- The versioned writes of the data plane into rampart.store, for rampart.admin: an apply (a whole
-- document or a delta) writes its records as the next version, then moves `current` to it, so a
-- request reads the whole old or the whole new data plane, never a mix; superseded records are
-- collected once no request can read them. One apply or collection at a time, across workers.
local cjson = require "cjson.safe"
local store = require "rampart.store"

local _M = {}

local dict = store.dict
local LOCK_TTL = 120
local YIELD_EVERY = 1000

-- Lets the worker serve other requests during a long push (50,000 domains take about a second).
local function yield()
  ngx.sleep(0)
end

local slot_key, version_of, record = store.slot_key, store.version_of, store.record
local SYNC_KEEP = 64 -- change lists kept (rampart.store's workers sync through them)
local GC_GRACE = 10 -- seconds a superseded record stays readable for requests that started before

local record_state = store.record_state

local function hex_number(h)
  return type(h) == "string" and #h == 12 and tonumber(h, 16) or nil
end
local MOD = 2 ^ 48

-- Superseded records of version v go once every request reads v or later (see the top of
-- rampart.store): the record before an entry rewritten at v, and an entry deleted at v.
local function collect(v)
  local list = dict:get("c|" .. v)
  local names
  if list == "*" then
    names = {}
    for _, key in ipairs(dict:get_keys(0)) do
      local kk = key:match("^%x+|e|(.*)$")
      if kk then names[#names + 1] = kk end
    end
  else
    names = cjson.decode(list or "") or {}
  end
  for i, kk in ipairs(names) do
    local ek = slot_key("e", kk)
    local raw = dict:get(ek)
    if raw ~= nil and version_of(raw) <= v then
      dict:delete(slot_key("p", kk))
      local _, live = record_state(raw)
      if not live then dict:delete(ek) end
    end
    if i % YIELD_EVERY == 0 then yield() end
  end
end

-- Runs the collections that are due (grace seconds after their version became current). Many due
-- at once, or one of a whole push, are one scan at the newest of them (it covers the older ones).
local SCAN_AT = 16
local function collect_due(grace)
  local due = cjson.decode(dict:get("gc") or "") or {}
  local now, keep, ready = ngx.now(), {}, {}
  local current = store.generation() or 0
  for _, item in ipairs(due) do
    if now - item[2] >= grace and item[1] <= current then
      ready[#ready + 1] = item[1]
    else
      keep[#keep + 1] = item
    end
  end
  local scan = #ready >= SCAN_AT
  for _, v in ipairs(ready) do
    if dict:get("c|" .. v) == "*" then scan = true end
  end
  if scan then
    local newest = 0
    for _, v in ipairs(ready) do newest = math.max(newest, v) end
    dict:set("c|" .. newest, "*")
    collect(newest)
  else
    for _, v in ipairs(ready) do collect(v) end
  end
  dict:set("gc", cjson.encode(keep))
end

-- Runs fn(...) under the push lock (one apply or collection at a time, across workers): false when
-- another holds it, else true and what pcall(fn, ...) answers. `holder` is what the lock names.
local function under_lock(holder, fn, ...)
  if not dict:safe_add("push_lock", holder, LOCK_TTL) then return false end
  local results = { pcall(fn, ...) }
  dict:delete("push_lock")
  return true, unpack(results, 1, table.maxn(results))
end

local function collect_later()
  ngx.timer.at(GC_GRACE + 1, function(premature)
    if premature then return end
    under_lock("gc", collect_due, GC_GRACE) -- held by a push: the next apply collects
  end)
end

-- An apply a worker did not finish (it died half-way): every record it wrote goes back.
local function repair(pending)
  for _, key in ipairs(dict:get_keys(0)) do
    local kk = key:match("^%x+|e|(.*)$")
    if kk then
      local raw = dict:get(key)
      if raw ~= nil and version_of(raw) >= pending then
        local pk = slot_key("p", kk)
        local before = dict:get(pk)
        if before ~= nil and version_of(before) < pending then
          dict:set(key, before)
          dict:delete(pk)
        else
          dict:delete(key)
        end
      end
    end
  end
  dict:delete("c|" .. pending)
  dict:delete("pending")
end

-- Writes `ops` ({kk, hash, clean value or nil}) as the next version and makes it current: every
-- record is written before `current` moves, and a failure puts every record back, so requests see
-- all of it or none. `reset`: the ops are the whole data plane (every other entry is deleted).
-- `from`: the version the caller built on (nil: any). Returns status, body.
local function apply(version, ops, opts)
  local interrupted = dict:get("pending")
  if interrupted then repair(interrupted) end
  collect_due(GC_GRACE)

  local previous = store.generation() or 0
  if opts.from ~= nil and opts.from ~= previous then
    return 409, { error = "the data plane is at another version", generation = previous }
  end
  local old_meta = store.read(previous, "meta:")
  if not opts.reset and (type(old_meta) ~= "table" or (opts.hashed and old_meta.sum == nil)) then
    return 409, { error = "no data plane to change: push a whole one", generation = previous }
  end
  local v = previous + 1
  assert(dict:safe_set("pending", v))

  local undo = {}
  local counts, sum
  if opts.reset then
    -- A whole document's records carry no hashes: no sum to keep (a delta needs a reset first).
    counts, sum = { d = 0, c = 0, a = 0 }, opts.hashed and 0 or nil
  else
    counts = { d = old_meta.domains or 0, c = old_meta.certificates or 0, a = old_meta.acmeCount or 0 }
    sum = opts.hashed and hex_number(old_meta.sum) or nil
  end
  local written = {}
  local ok, err = true, nil

  local function write(i, kk, hash, value)
    local ek, pk = slot_key("e", kk), slot_key("p", kk)
    local old = dict:get(ek)
    if old ~= nil and version_of(old) == v then
      -- Named twice in one apply: the first write's bookkeeping is undone below by the caller.
      local ok2, err2 = dict:safe_set(ek, record(i, v, hash, value))
      return ok2, err2, old
    end
    undo[#undo + 1] = { ek, old, pk, dict:get(pk) }
    if old ~= nil then
      local ok1, err1 = dict:safe_set(pk, old)
      if not ok1 then return ok1, err1 end
    end
    local ok2, err2 = dict:safe_set(ek, record(i, v, hash, value))
    return ok2, err2, old
  end

  for i, op in ipairs(ops) do
    local kk, hash, value = op[1], op[2], op[3]
    local live = value ~= nil
    local old
    ok, err, old = write(i, kk, hash, live and value or cjson.null)
    if not ok then break end
    written[kk] = true
    local kind = kk:match("^(%a+):")
    local old_hash, old_live = record_state(old)
    if opts.reset and old ~= nil and version_of(old) ~= v then old_live, old_hash = false, nil end
    if counts[kind] then counts[kind] = counts[kind] + (live and 1 or 0) - (old_live and 1 or 0) end
    if sum ~= nil then
      if old_live then sum = sum - (hex_number(old_hash) or 0) end
      if live then sum = sum + (hex_number(hash) or 0) end
      sum = sum % MOD
    end
    if i % YIELD_EVERY == 0 then yield() end
  end

  -- A whole push deletes every entry it does not name.
  if ok and opts.reset then
    local i = #ops
    for _, key in ipairs(dict:get_keys(0)) do
      local kk = key:match("^%x+|e|(.*)$")
      if kk and kk ~= "meta:" and not written[kk] then
        local _, live = record_state(dict:get(key))
        if live then
          i = i + 1
          ok, err = write(i, kk, "", cjson.null)
          if not ok then break end
          if i % YIELD_EVERY == 0 then yield() end
        end
      end
    end
  end

  local meta = {
    version = version, generation = v, domains = counts.d, certificates = counts.c, acme = counts.a > 0,
    acmeCount = counts.a, limits = opts.meta.limits, hash = opts.hash, geoDatabase = opts.meta.geoDatabase,
    abuseIPs = opts.meta.abuseIPs, sum = sum and string.format("%012x", sum) or nil,
  }
  if ok then ok, err = write(#ops + 1, "meta:", "", meta) end
  if ok then
    local changed = "*"
    if not opts.reset then
      local names = { "meta:" }
      for _, op in ipairs(ops) do names[#names + 1] = op[1] end
      changed = cjson.encode(names)
    end
    ok, err = dict:safe_set("c|" .. v, changed)
  end
  if ok then ok, err = dict:safe_set("current", v) end
  if not ok then
    for j = #undo, 1, -1 do
      local u = undo[j]
      if u[2] == nil then dict:delete(u[1]) else dict:set(u[1], u[2]) end
      if u[4] == nil then dict:delete(u[3]) else dict:set(u[3], u[4]) end
    end
    dict:delete("c|" .. v)
    dict:delete("pending")
    ngx.log(ngx.ERR, "rampart admin: version ", version, " refused, apply ", v, " aborted: ", err)
    if err == "no memory" then
      return 507, { error = "the data plane does not fit in the shared dict (no memory)", field = "(document)" }
    end
    return 500, { error = "cannot store the data plane: " .. tostring(err) }
  end
  dict:delete("pending")
  dict:delete("c|" .. (v - SYNC_KEEP))
  local due = cjson.decode(dict:get("gc") or "") or {}
  due[#due + 1] = { v, ngx.now() }
  dict:set("gc", cjson.encode(due))
  collect_later()

  ngx.log(ngx.NOTICE, "rampart admin: version ", version, " active as apply ", v,
    " (", meta.domains, " domains, ", meta.certificates, " certificates, ", #ops, " entries written)")
  return 200, meta
end

-- Runs `apply` under the push lock. Returns status, body.
function _M.locked(version, ops, opts)
  local got, ok, status, answer = under_lock(ngx.worker.pid(), apply, version, ops, opts)
  if not got then return 409, { error = "another push is in progress" } end
  if not ok then
    ngx.log(ngx.ERR, "rampart admin: push failed: ", status)
    return 500, { error = "push failed" }
  end
  return status, answer
end

-- Collects every superseded record now, under the push lock. Returns status, body.
function _M.collect_now()
  local got, ok, err = under_lock(ngx.worker.pid(), collect_due, 0)
  if not got then return 409, { error = "a push is in progress" } end
  if not ok then return 500, { error = tostring(err) } end
  return 200, { collected = true }
end

return _M

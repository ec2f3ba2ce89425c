-- The site firewall's frequency limits at the edge (packages/contract/src/routes/firewall-frequency.ts;
-- docs/decisions.md "Site firewall at the edge"), called by rampart.firewall after the whitelist,
-- the blacklist and the user-agent rules (a whitelisted client is never counted). Counted per node,
-- per rule and per client address (the lists' address: IPv4-mapped IPv6 folded to IPv4) in the
-- `rampart_firewall` shared dict, so every worker of the node counts into the same numbers:
--
--   interval limits  a fixed window of `seconds` that starts with the address's first covered
--                    request (the counter's expiry, `incr` with init and init_ttl: one atomic
--                    operation); request number times + 1 and every later one in the window get
--                    the rule's mode.
--   per-second       nginx's limit_req without nodelay: a leaky bucket of `rate` requests per second
--                    with room for `burst` more. Kept as one number per address, the time at which
--                    the bucket runs empty (the "theoretical arrival time" of GCRA, the same
--                    algorithm), counted in slots of 1/rate s from a fixed epoch so that counting a
--                    request is adding 1 (`incr`: atomic across workers, exact in a double). A
--                    request finds the bucket `ahead` slots past now, its own slot included: more
--                    than burst + 1 is refused and its slot given back (limit_req does not account a
--                    refused request); otherwise it waits (ahead - 1) / rate seconds, limit_req's
--                    excess / rate (under a millisecond is no wait, as limit_req's whole
--                    milliseconds). A bucket found more than half a slot in the past ran empty: it
--                    is set again to hold this request's slot from now (a request under the rate
--                    costs an `incr` and that `set`). A key lives 1 s past the excess it last held
--                    (refreshed by delayed requests only; a request that neither waits nor finds the
--                    bucket empty costs one `incr`). The time is the machine's monotonic clock, read
--                    when the request is counted (see `clock`).
--                    With blockSeconds > 0 a refusal also bans the address from the rule for that
--                    long (a key with that TTL): every covered request gets the mode.
--
-- Every enabled rule whose URL pattern covers the request counts it (interval limits first, then
-- per-second ones, each list in its priority order); the first one over its limit decides: deny
-- answers 929 (the edge's or the site's own 929 page), drop closes the connection (444), and
-- dropBlacklist drops and puts the address on the site's block list (rampart.firewall's `decided`,
-- rampart.blocklist: a per-second limit's block lasts its blockSeconds when above 0). A request
-- no rule refuses but a per-second rule slows down is delayed by the longest wait: route() runs in
-- set_by_lua, which cannot yield, so it hands the request to @rampart_route with the wait in the
-- route ("~<seconds>~<route>", rampart.router), where rewrite_by_lua sleeps and then goes on where
-- the request would have gone. Requests that are not delayed take their usual path.
--
-- Races (several workers): interval counts are exact. A per-second refusal adds its slot and takes
-- it back with a second `incr`: a request of the same address counted in between sees the bucket
-- one slot fuller and may be refused at the boundary. Restarting an empty bucket (a `set`) may
-- overwrite slots other workers added in between, and a key that expires under a steady stream of
-- undelayed requests forgets less than a millisecond of excess: these let a few more requests
-- through. Each is bounded by the requests in flight at that instant (or one millisecond's worth),
-- none grows with time. A worker paused between reading the clock and counting errs the same way
-- (towards letting a request through).
--
-- The dict evicts the least recently used keys when full (sized in render.ts): an evicted counter
-- starts again from zero and an evicted ban ends early, so a full dict can only let more requests
-- through, never refuse one wrongly. Without the dict (an nginx.conf rendered before it existed)
-- frequency rules do nothing (one warning per worker).
local _M = {}

local monotonic = require "rampart.monotonic"
local challenge = require "rampart.challenge"

local dict = ngx.shared.rampart_firewall
local request_url = require "rampart.request_url"
local tostring, tonumber = tostring, tonumber

-- The per-second limits read the machine's monotonic clock itself (one clock for every worker and
-- every process of the machine), not nginx's cached time: a worker's cached time lags by as long as
-- its event-loop iteration took, and on a busy node that lag (tens of milliseconds) would read as
-- thousands of slots at a high rate and refuse requests well under it.
-- Seconds since the machine started (rampart.monotonic); should another library have declared
-- clock_gettime differently, nginx's time brought up to date (a system call and a few formatted
-- strings per request) instead.
local clock = monotonic.now or function()
  ngx.update_time()
  return ngx.now()
end
-- How long a per-second key outlives the end of the excess it last held (seconds).
local SLACK = 1
-- Patterns that match every string: no URL, no PCRE (as rampart.firewall).
local EVERY_URL = { [".*"] = true, ["/*"] = true }

-- deny: 929; drop and dropBlacklist (rampart.firewall then blocks the address): 444.
local function route_of(action)
  return (action == "drop" or action == "dropBlacklist") and "444" or "929"
end

-- An anti-CC rule's error counter: how many of its challenges the address left unpassed in the
-- window (keys "e<rule id>:<address>").
local function errors_key(rule, addr)
  return "e" .. rule .. ":" .. addr
end

-- A client passed the challenge an anti-CC rule asked for: that challenge is no error.
challenge.on_pass = function(rule, addr)
  if dict == nil then return end
  local key = errors_key(rule, addr)
  -- A token answered twice renews the pass but takes back one error only.
  local left = dict:incr(key, -1)
  if left and left < 0 then dict:incr(key, 1) end
end

local warned = false

-- The compiled frequency limits of a firewall entry, or nil when it has none (or the dict is missing).
-- A counter's key names what its number means (the rule and its window or rate), so a changed rule
-- starts new counters instead of misreading old ones.
function _M.compile(raw)
  local intervals, rates = {}, {}
  for i, r in ipairs(raw.intervals or {}) do
    intervals[i] = {
      id = tostring(r.id),
      url = not EVERY_URL[r.url] and r.url or nil,
      seconds = r.seconds,
      times = r.times,
      key = "i" .. r.id .. "/" .. r.seconds .. ":",
      action = r.action,
      route = route_of(r.action),
    }
  end
  for i, r in ipairs(raw.rates or {}) do
    rates[i] = {
      id = tostring(r.id),
      url = not EVERY_URL[r.url] and r.url or nil,
      rate = r.rate,
      limit = r.burst + 1,
      block = r.blockSeconds > 0 and r.blockSeconds or nil,
      key = "r" .. r.id .. "/" .. r.rate .. ":",
      ban = "b" .. r.id .. ":",
      action = r.action,
      route = route_of(r.action),
    }
  end
  local anti_cc = {}
  for i, r in ipairs(raw.antiCC or {}) do
    local id = tostring(r.id)
    anti_cc[i] = {
      id = id,
      url = not EVERY_URL[r.url] and r.url or nil,
      seconds = r.seconds,
      -- 0: every covered request without a pass is challenged ("full verification").
      times = r.times,
      key = "c" .. r.id .. "/" .. r.seconds .. ":",
      error_seconds = r.errorSeconds,
      error_times = r.errorTimes,
      action = r.challenge,
      route = challenge.route(challenge.LETTER[r.challenge], raw.id, id),
      -- What a client over the error limit gets.
      over = { id = id, action = r.errorAction, route = route_of(r.errorAction) },
    }
  end
  if #intervals == 0 and #rates == 0 and #anti_cc == 0 then return nil end
  if dict == nil then
    if not warned then
      ngx.log(ngx.WARN, "rampart firewall: frequency limits need the rampart_firewall shared dict, which this ",
        "nginx.conf lacks: they are not applied until nginx is started with a newer one")
      warned = true
    end
    return nil
  end
  return { intervals = intervals, rates = rates, anti_cc = #anti_cc > 0 and anti_cc or nil }
end

-- Whether `rule` covers the request; the URL is read the first time a rule needs it.
local function covers(rule, var, url)
  local pattern = rule.url
  if pattern == nil then return true, url end
  -- The URL stays in nginx's memory (rampart.request_url): `url` is its length once read.
  if url == nil then url = request_url.read() end
  -- "jo": compiled once per worker; lua_regex_match_limit bounds backtracking (a failure is no match).
  local from, err = request_url.find(pattern)
  if err then ngx.log(ngx.WARN, "rampart firewall: rule ", rule.id, " pattern failed: ", err) end
  return from == true, url
end

-- Counts the request in every rule of `freq` that covers it. Answers the first rule over its limit
-- and its kind ("intervalLimit" | "secondLimit"), or nil and the seconds to delay the request (0:
-- none). `addr` is the folded binary client address, `url` the absolute URL if already read.
-- Then, when no limit refused the request and the client has no pass (`passed`), the anti-CC rules
-- in their order: the first that covers the request challenges it when its frequency is full
-- verification or the address is over `times` requests in its window of `seconds` (counted as the
-- interval limits count); every challenge it serves counts one error for the address until passed,
-- and an address over `errorTimes` errors within `errorSeconds` gets the rule's error action
-- (deny 929, drop and dropBlacklist 444) instead of another challenge.
function _M.check(freq, var, addr, url, passed)
  local refused, kind, hit = nil, nil, false
  local intervals = freq.intervals
  for i = 1, #intervals do
    local r = intervals[i]
    hit, url = covers(r, var, url)
    if hit then
      -- A dict that cannot count (no memory even after eviction) answers nil: the request passes.
      local count = dict:incr(r.key .. addr, 1, 0, r.seconds)
      if count and count > r.times and refused == nil then refused, kind = r, "intervalLimit" end
    end
  end
  local rates, wait = freq.rates, 0
  for i = 1, #rates do
    local r = rates[i]
    hit, url = covers(r, var, url)
    if hit then
      local over = false
      if r.block and dict:get(r.ban .. addr) then
        over = true
      else
        -- The clock is read again after the `incr`: a worker paused in between then finds the
        -- bucket emptier than it is (lenient), never fuller.
        local key, rate = r.key .. addr, r.rate
        local tat = dict:incr(key, 1, clock() * rate, SLACK)
        local ahead = tat and tat - clock() * rate
        if ahead and ahead < 0.5 then
          -- The bucket ran empty before its key expired: it holds this request's slot from now.
          dict:set(key, clock() * rate + 1, SLACK)
          ahead = 1
        end
        if ahead == nil then -- a dict that cannot count (no memory even after eviction): passes
        elseif ahead > r.limit then
          dict:incr(key, -1)
          over = true
          if r.block then dict:set(r.ban .. addr, true, r.block) end
        else
          local delay = (ahead - 1) / rate
          if delay >= 0.001 then
            -- Keep the key while the bucket holds this request's excess.
            dict:expire(key, ahead / rate + SLACK)
            if delay > wait then wait = delay end
          end
        end
      end
      if over and refused == nil then refused, kind = r, "secondLimit" end
    end
  end
  if refused then return refused, kind, 0 end
  -- Anti-CC: a client with a pass for the site is not challenged (nor counted) again.
  local anti_cc = freq.anti_cc
  if anti_cc == nil or passed then return nil, nil, wait end
  for i = 1, #anti_cc do
    local r = anti_cc[i]
    hit, url = covers(r, var, url)
    if hit then
      local errors = errors_key(r.id, addr)
      local failed = dict:get(errors)
      if failed and failed > r.error_times then return r.over, "antiCC", 0 end
      local count = r.times == 0 and 1 or dict:incr(r.key .. addr, 1, 0, r.seconds)
      if count and count > r.times then
        -- Counted as an error until the client passes it (challenge.on_pass).
        dict:incr(errors, 1, 0, r.error_seconds)
        return r, "antiCC", 0
      end
    end
  end
  return nil, nil, wait
end

return _M

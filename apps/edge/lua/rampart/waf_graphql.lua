-- GraphQL abuse for rampart.waf (group graphql, ids 117000..117999), over a decoded, lower-cased
-- value (a "query" field of a JSON body, a query argument, a form field):
--   introspection — "__schema { ... }", "__type(name: ...)": the whole API mapped by a client
--     that is not the application's own (production clients are built against a known schema;
--     GraphQL's own guidance is to turn introspection off in production);
--   alias batching — one field asked for many times under aliases in one request
--     ("a1: login(...) a2: login(...) ..."), which turns one request into many password guesses
--     or lookups past per-request rate limits; and JSON batches of many operations.
-- Sources: OWASP GraphQL Cheat Sheet; PayloadsAllTheThings "GraphQL Injection"; the GraphQL
-- specification §4 (introspection); Escape's and Doyensec's write-ups on alias-based batching.
local waf_re = require "rampart.waf_re"
local re_find, re_gmatch = waf_re.find, waf_re.gmatch

local _M = {}

local find = string.find

local R = { introspection = 117001, aliases = 117002, batch = 117003 }
_M.RULES = R

local INTROSPECTION = [=[\b__schema\s{0,8}\{|\b__type\s{0,8}\(\s{0,8}name\s{0,8}:|\bintrospectionquery\b[^{}]{0,64}\{\s{0,8}__schema]=]
-- an alias, a field and its arguments: "name: field("
local ALIAS_CALL = [=[(?:^|[\s{,])[_a-z][\w]{0,40}\s{0,4}:\s{0,4}([_a-z][\w]{0,40})\s{0,4}\(]=]
local ALIASES_MIN = 10

function _M.check(l, hit)
  if find(l, "__", 1, true) then
    local from = re_find(l, INTROSPECTION, "jo")
    if from then
      hit(R.introspection, 8, from)
      return
    end
  end
  -- the same field under many aliases
  if find(l, ":", 1, true) and find(l, "(", 1, true) and find(l, "{", 1, true) then
    local counts, n = {}, 0
    for field in re_gmatch(l, ALIAS_CALL, "jo") do
      local f = field[1]
      counts[f] = (counts[f] or 0) + 1
      if counts[f] >= ALIASES_MIN then
        hit(R.aliases, 8, 1)
        return
      end
      n = n + 1
      if n > 512 then return end
    end
  end
end

-- A JSON body that is an array of many GraphQL operations (a batch).
function _M.batch(doc, hit)
  if #doc < ALIASES_MIN then return end
  local ops = 0
  for i = 1, #doc do
    local x = doc[i]
    if type(x) == "table" and type(x.query) == "string" then ops = ops + 1 end
  end
  if ops >= ALIASES_MIN then hit(R.batch, 5, 1) end
end

_M.PATTERNS = {
  { id = R.introspection, group = "graphql", re = INTROSPECTION }, { id = R.aliases, group = "graphql", re = ALIAS_CALL },
}

return _M

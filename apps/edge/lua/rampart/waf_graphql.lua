-- GraphQL abuse for rampart.waf (group graphql, ids 117000..117999), over a decoded, lower-cased
-- value (a "query" field of a JSON body, a query argument, a form field):
--   introspection — "__schema { ... }", "__type(name: ...)": the whole API mapped by a client
--     that is not the application's own (production clients are built against a known schema;
--     GraphQL's own guidance is to turn introspection off in production);
--   alias batching — one field asked for many times under aliases in one request
--     ("a1: login(...) a2: login(...) ..."), which turns one request into many password guesses
--     or lookups past per-request rate limits; and JSON batches of many operations;
--   resource exhaustion — a selection set nested deeper than any client's (DEPTH_MAX: public
--     depth limits are 10 to 15), and one directive repeated on a field ("@include(...)" four
--     times or more: the specification forbids a non-repeatable directive twice).
-- Sources: OWASP GraphQL Cheat Sheet; PayloadsAllTheThings "GraphQL Injection"; the GraphQL
-- specification §4 (introspection); Escape's and Doyensec's write-ups on alias-based batching.
local waf_re = require "rampart.waf_re"
local re_find, re_gmatch, run = waf_re.find, waf_re.gmatch, waf_re.run

local _M = {}

local find = string.find

local R = { introspection = 117001, aliases = 117002, batch = 117003, depth = 117004, directives = 117005 }
_M.RULES = R

local INTROSPECTION = [=[\b__schema\s{0,8}\{|\b__type\s{0,8}\(\s{0,8}name\s{0,8}:|\bintrospectionquery\b[^{}]{0,64}\{\s{0,8}__schema]=]
-- an alias, a field and its arguments: "name: field("
local ALIAS_CALL = [=[(?:^|[\s{,])[_a-z][\w]{0,40}\s{0,4}:\s{0,4}([_a-z][\w]{0,40})\s{0,4}\(]=]
local ALIASES_MIN = 10
-- a GraphQL document (an operation keyword, or a selection set opening on a field), not JSON
local DOCUMENT = [=[^\s{0,8}(?:query|mutation|subscription|fragment)\b|^\s{0,8}\{\s{0,8}[_a-z]\w{0,40}\s{0,8}[({@]]=]
local DEPTH_MAX = 20
local REPEATED_DIRECTIVE = [=[(@[_a-z]\w{0,40})(?:\s{0,4}\([^()]{0,200}\))?(?:\s{0,4}\1\b(?:\s{0,4}\([^()]{0,200}\))?){3}]=]

local byte = string.byte

-- The deepest nesting of braces (outside strings), or 0 when there are fewer than DEPTH_MAX.
local function depth(l)
  local opens, at = 0, 1
  while true do
    at = find(l, "{", at, true)
    if not at then break end
    opens, at = opens + 1, at + 1
  end
  if opens <= DEPTH_MAX then return 0 end
  local d, deepest, quoted = 0, 0, false
  for i = 1, #l do
    local c = byte(l, i)
    if c == 34 and byte(l, i - 1) ~= 92 then
      quoted = not quoted
    elseif not quoted then
      if c == 123 then
        d = d + 1
        if d > deepest then deepest = d end
      elseif c == 125 then
        d = d - 1
      end
    end
  end
  return deepest
end

local INTROSPECTION_CHECK = waf_re.checks({ { id = R.introspection, re = INTROSPECTION, need = "__" } })
local DIRECTIVES_CHECK = waf_re.checks({ { id = R.directives, re = REPEATED_DIRECTIVE, need = "@" } })

function _M.check(l, hit)
  if run(INTROSPECTION_CHECK, l, hit, true) then return end
  if #l > 2 * DEPTH_MAX and re_find(l, DOCUMENT, "jo") then
    if depth(l) > DEPTH_MAX then
      hit(R.depth, 8, 1)
      return
    end
    if run(DIRECTIVES_CHECK, l, hit, true) then return end
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
  { id = R.depth, group = "graphql", re = DOCUMENT }, { id = R.directives, group = "graphql", re = REPEATED_DIRECTIVE },
}

return _M

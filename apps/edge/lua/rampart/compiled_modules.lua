-- Site modules compiled once per worker and generation, by module id: the domains bound to one
-- share it (rampart.acl, rampart.token_auth).
local store = require "rampart.store"

local _M = {}

-- A function (gen, id) → module `id` of generation `gen` compiled by `compile`, or false when the
-- document has no module of type `kind` with that id.
function _M.cache(kind, compile)
  local compiled_gen, compiled = nil, {}
  return function(gen, id)
    if gen ~= compiled_gen then compiled_gen, compiled = gen, {} end
    local module = compiled[id]
    if module == nil then
      local raw = store.module(gen, id)
      module = raw and raw.type == kind and compile(raw) or false
      compiled[id] = module
    end
    return module
  end
end

return _M

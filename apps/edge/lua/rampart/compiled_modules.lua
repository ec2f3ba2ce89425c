-- Site modules compiled once per worker and cache epoch (rampart.store: a changed module starts a
-- new one), by module id: the domains bound to one
-- share it (rampart.acl, rampart.token_auth).
local store = require "rampart.store"

local _M = {}

-- A function (gen, id) → module `id` of generation `gen` compiled by `compile`, or false when the
-- document has no module of type `kind` with that id.
function _M.cache(kind, compile)
  local compiled_epoch, compiled = nil, {}
  return function(gen, id)
    if store.epoch ~= compiled_epoch then compiled_epoch, compiled = store.epoch, {} end
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

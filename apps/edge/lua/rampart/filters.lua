-- The filters of the locations for domains with site modules or site settings (render.ts
-- SITE_FILTERS): @rampart_modules, @rampart_site_http/https and the `_site` cache twins. nginx
-- takes one header_filter_by_lua and one body_filter_by_lua per location, so both features run from
-- here: the modules' response headers first, then the settings' filter, which may swap in an error
-- page and vetoes compression the site did not ask for (nginx's gzip filter runs after this one).
local modules = require "rampart.modules"
local settings = require "rampart.settings"

local _M = {}

function _M.header()
  modules.header_filter()
  settings.header_filter()
end

function _M.body()
  settings.body_filter()
end

return _M

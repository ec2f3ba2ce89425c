-- ngx.re.find for the WAF (rampart.waf, rampart.waf_sqli, rampart.waf_xss). A pattern that fails
-- on a value (PCRE's backtracking bound, lua_regex_match_limit, or any other error) cannot say
-- whether the value holds what it looks for. It answers "no match" to its caller, as ngx.re.find
-- does, but the failure is remembered for the request: rampart.waf then counts the request as not
-- fully inspected, as past its budget, and the module's fail mode decides (docs/decisions.md "The
-- WAF"). So a value crafted to make a rule's pattern give up is never read as clean by a module
-- that fails closed, and is logged either way.
local ngx_re_find = ngx.re.find

local _M = {}

-- One request at a time per worker (nothing in the WAF yields): module state, reset per request.
local failed_err = nil

function _M.find(s, re, opts)
  local from, to, err = ngx_re_find(s, re, opts)
  if err and not failed_err then failed_err = err end
  return from, to, err
end

-- The first error of this request's patterns, or nil.
function _M.failure() return failed_err end

function _M.reset() failed_err = nil end

return _M

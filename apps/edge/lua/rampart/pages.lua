-- The HTML pages the edge answers with itself: every status nginx or the edge makes on its own
-- (render.ts routes nginx's error statuses here through error_page), and the bodies of its
-- redirects. Static text only (no host, path or internals) and the request's id.
-- A site with settings (rampart.settings) may have its own page for a status, sent verbatim; else the
-- operator's default page for it (`errorPages` of the data plane), verbatim too. The language is the visitor's when Accept-Language names one of ours, else the site's, else English.
local settings = require "rampart.settings"
local store = require "rampart.store"
local accept_language = require "rampart.accept_language"

local _M = {}

-- Page keys that are not the status on the wire: nginx's own codes for a request it refuses with 400,
-- and 4030, a firewall's deny, answered 403 ("Access denied"; the key 403 is the disabled domain's page).
local WIRE = { [494] = 400, [497] = 400, [4030] = 403 }

local MESSAGES = {
  en_US = {
    [301] = { "Moved permanently", "This page has moved." },
    [302] = { "Found", "This page is at another address for now." },
    [307] = { "Temporary redirect", "This page is at another address for now." },
    [308] = { "Permanent redirect", "This page has moved." },
    [400] = { "Bad request", "The request could not be understood." },
    [401] = { "Authorization required", "This page needs valid credentials." },
    [403] = { "Domain disabled", "This domain is disabled on this service." },
    [404] = { "Domain not found", "This domain is not served here." },
    [405] = { "Method not allowed", "This request method is not allowed." },
    [413] = { "Request too large", "The request body is larger than this service accepts." },
    [414] = { "URI too long", "The request address is longer than this service accepts." },
    [416] = { "Range not satisfiable", "The requested range is not part of this resource." },
    [494] = { "Request header too large", "A request header or cookie is larger than this service accepts." },
    [497] = { "HTTPS required", "A plain HTTP request was sent to the HTTPS port. Use https:// instead." },
    [500] = { "Internal error", "The edge could not handle this request. It has been logged." },
    [501] = { "Not implemented", "This service does not support the request's transfer encoding." },
    [502] = { "Bad gateway", "The origin server could not be reached." },
    [503] = { "Not configured", "This edge node has no configuration yet." },
    [504] = { "Gateway timeout", "The origin server did not answer in time." },
    [903] = { "Access denied", "This request was blocked by the site's security rules." },
    [904] = { "Access denied", "This request was blocked by the site's security rules." },
    [929] = { "Too many requests", "Too many requests from your address. Please try again later." },
    [978] = { "Access denied", "This request was blocked by the site's security rules." },
    [4030] = { "Access denied", "This request was blocked by the site's security rules." },
  },
  zh_CN = {
    [301] = { "已永久移动", "此页面已移至新地址。" },
    [302] = { "已找到", "此页面暂时位于其他地址。" },
    [307] = { "临时重定向", "此页面暂时位于其他地址。" },
    [308] = { "永久重定向", "此页面已移至新地址。" },
    [400] = { "错误请求", "无法理解此请求。" },
    [401] = { "需要认证", "访问此页面需要有效的凭据。" },
    [403] = { "域名已停用", "此域名在本服务上已停用。" },
    [404] = { "域名不存在", "本服务未提供此域名。" },
    [405] = { "方法不允许", "不允许此请求方法。" },
    [413] = { "请求过大", "请求正文超出本服务允许的大小。" },
    [414] = { "URI 过长", "请求地址超出本服务允许的长度。" },
    [416] = { "范围无法满足", "请求的范围不在此资源之内。" },
    [494] = { "请求头过大", "请求头或 Cookie 超出本服务允许的大小。" },
    [497] = { "需要 HTTPS", "普通 HTTP 请求被发送到了 HTTPS 端口，请改用 https://。" },
    [500] = { "内部错误", "边缘节点无法处理此请求，已记录。" },
    [501] = { "未实现", "本服务不支持此请求的传输编码。" },
    [502] = { "网关错误", "无法连接源站服务器。" },
    [503] = { "尚未配置", "此边缘节点尚无配置。" },
    [504] = { "网关超时", "源站服务器未及时响应。" },
    [903] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
    [904] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
    [929] = { "请求过多", "来自您地址的请求过多，请稍后再试。" },
    [978] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
    [4030] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
  },
  zh_TW = {
    [301] = { "已永久移動", "此頁面已移至新位址。" },
    [302] = { "已找到", "此頁面暫時位於其他位址。" },
    [307] = { "暫時重新導向", "此頁面暫時位於其他位址。" },
    [308] = { "永久重新導向", "此頁面已移至新位址。" },
    [400] = { "錯誤的請求", "無法理解此請求。" },
    [401] = { "需要驗證", "存取此頁面需要有效的憑證。" },
    [403] = { "網域已停用", "此網域在本服務上已停用。" },
    [404] = { "網域不存在", "本服務未提供此網域。" },
    [405] = { "不允許的方法", "不允許此請求方法。" },
    [413] = { "請求過大", "請求本文超出本服務允許的大小。" },
    [414] = { "URI 過長", "請求位址超出本服務允許的長度。" },
    [416] = { "範圍無法滿足", "請求的範圍不在此資源之內。" },
    [494] = { "請求標頭過大", "請求標頭或 Cookie 超出本服務允許的大小。" },
    [497] = { "需要 HTTPS", "一般 HTTP 請求被傳送到了 HTTPS 連接埠，請改用 https://。" },
    [500] = { "內部錯誤", "邊緣節點無法處理此請求，已記錄。" },
    [501] = { "未實作", "本服務不支援此請求的傳輸編碼。" },
    [502] = { "閘道錯誤", "無法連線至來源伺服器。" },
    [503] = { "尚未設定", "此邊緣節點尚無設定。" },
    [504] = { "閘道逾時", "來源伺服器未及時回應。" },
    [903] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
    [904] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
    [929] = { "請求過多", "來自您位址的請求過多，請稍後再試。" },
    [978] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
    [4030] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
  },
}
local HTML_LANG = { en_US = "en", zh_CN = "zh-CN", zh_TW = "zh-TW" }

-- The request id line's label (the id a visitor can quote; the log search finds its request by it).
local REQUEST_ID = { en_US = "Request ID", zh_CN = "请求 ID", zh_TW = "請求 ID" }
local PAGE_END = "</body></html>\n"

-- Each page as its text up to the footer and the end: the request id goes in between
-- (footer_parts(), HEADS).
local PAGES = {}
for language, messages in pairs(MESSAGES) do
  local pages = {}
  for key, m in pairs(messages) do
    local status = WIRE[key] or key
    pages[key] = table.concat({
      "<!DOCTYPE html>\n<html lang=\"", HTML_LANG[language], "\"><head><meta charset=\"utf-8\"><title>",
      status, " ", m[1], "</title></head>\n",
      "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n",
      "<h1>", status, " ", m[1], "</h1>\n<p>", m[2], "</p>\n",
      "<hr><p style=\"color:#888\">Rampart</p>\n",
    })
  end
  PAGES[language] = pages
end
local DEFAULT = PAGES.en_US

local find = string.find

-- The request id line around the id, and the end of the document.
local function id_line(language)
  return "<p style=\"color:#888;font-size:small\">" .. (REQUEST_ID[language] or REQUEST_ID.en_US) .. ": <code>"
end
local ID_END = "</code></p>\n" .. PAGE_END

-- Each page up to its request id (the page, then the id line's start), built once: a page is
-- never concatenated with its request id in Lua. Such a string, long and differing from the last
-- request's only in its middle, lands in one bucket of LuaJIT's string table (its hash reads a few
-- bytes at the ends and the middle): each new one was compared with every earlier one still
-- alive, ~20 µs per refused request in a flood (bench/README.md). The parts go to nginx as they are
-- (ngx.print's list, or the router's three variables).
local HEADS = {}
for language, pages in pairs(PAGES) do
  local heads = {}
  for key, text in pairs(pages) do heads[key] = text .. id_line(language) end
  HEADS[language] = heads
end

-- This request's id for its pages, or nil when the request never reached the router (nginx
-- refused it first) or the id holds anything but the router's characters.
local function request_id()
  local id = ngx.var.rampart_request_id
  if id == nil or id == "" or find(id, "[^%w._-]") then return nil end
  return id
end

-- The end of an edge page in `language` as three strings: the start of the request id line, this
-- request's id (the router's, rampart.router, which the log line carries), the end of the line
-- and of the document; or the end of the document and two empty strings when there is no id.
function _M.footer_parts(language)
  local id = request_id()
  if id == nil then return PAGE_END, "", "" end
  return id_line(language), id, ID_END
end

-- The visitor's language from Accept-Language: the range of ours with the highest q (the first
-- of equals), or nil when it names none of ours (or only with q=0). Read in place, never as a
-- Lua string (rampart.accept_language).
_M.accepted_language = accept_language.of

-- The language of the edge's pages for this request: the visitor's, else the site's, else English.
local function language_for(site)
  local language = accept_language.visitor() or (site and site.language)
  return PAGES[language] and language or "en_US"
end

-- The edge's own page for `key` in the request's language, with the request's id, as three
-- strings (see HEADS): the page up to the id, the id, the rest.
local function own_parts(site, key)
  local language = language_for(site)
  local id = request_id()
  local head = HEADS[language][key]
  if id == nil then return PAGES[language][key] or DEFAULT[500], "", PAGE_END end
  if head then return head, id, ID_END end
  return DEFAULT[500] .. id_line(language), id, ID_END
end

-- For pages built elsewhere (rampart.challenge): the language key and the html lang attribute.
function _M.language()
  local language = language_for(settings.for_request())
  return language, HTML_LANG[language]
end

-- The operator's default page for `status` in the active generation, or nil.
local function operator_page(status)
  local gen = store.generation()
  return gen and store.operator_pages(gen)[status]
end

-- The page for `key` as three strings to send one after the other, and its status on the wire:
-- the site's own page for the status when the request's domain has one, else the operator's
-- default page for it (each whole, then two empty strings), else the edge's in the visitor's or the
-- site's language (own_parts). Also for the router (set_by_lua), which has nginx answer a
-- firewall's deny with it directly (public-server.ts: `return 403
-- "$rampart_page$rampart_page_id$rampart_page_end"`).
function _M.parts(key)
  local status = WIRE[key] or key
  local site = settings.for_request()
  local page = site and site.pages[status] or operator_page(status)
  if page then return page, "", "", status end
  local head, id, rest = own_parts(site, key)
  return head, id, rest, status
end

-- The page for `key` as one string, and its status (see parts()).
function _M.body(key)
  local head, id, rest, status = _M.parts(key)
  return head .. id .. rest, status
end

-- Sends the page for `key` (a status, 494/497 answered as 400, or 4030 as 403; see parts()) and
-- ends the request (any phase that may send a body). The router's direct deny has nginx send the
-- same headers (public-server.ts).
function _M.send(key)
  local head, id, rest, status = _M.parts(key)
  ngx.status = status
  local header = ngx.header
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  header["Vary"] = "Accept-Language"
  ngx.print(head, id, rest)
  return ngx.exit(ngx.HTTP_OK)
end

-- Used by the error_page named locations (render.ts ERROR_PAGES): nginx's own statuses.
function _M.send_error(status)
  return _M.send(status)
end

-- A redirect (301, 302, 307 or 308) to `location` with a short page as its body, instead of
-- nginx's stock one. `location` goes out as given (a relative one stays relative).
function _M.redirect(location, status)
  ngx.status = status
  local header = ngx.header
  header["Location"] = location
  header["Content-Type"] = "text/html; charset=utf-8"
  ngx.print(own_parts(settings.for_request(), status))
  return ngx.exit(ngx.HTTP_OK)
end

return _M

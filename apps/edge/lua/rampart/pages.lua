-- The HTML pages the edge answers with itself. Static text only: no host, path or internals.
-- A site with settings (rampart.settings) may have its own page for a status, sent verbatim, and
-- chooses the language of these ones (English by default).
local settings = require "rampart.settings"

local _M = {}

local MESSAGES = {
  en_US = {
    [403] = { "Domain disabled", "This domain is disabled on this service." },
    [404] = { "Domain not found", "This domain is not served here." },
    [500] = { "Internal error", "The edge could not handle this request. It has been logged." },
    [502] = { "Bad gateway", "The origin server could not be reached." },
    [503] = { "Not configured", "This edge node has no configuration yet." },
    [504] = { "Gateway timeout", "The origin server did not answer in time." },
    [903] = { "Access denied", "This request was blocked by the site's security rules." },
    [904] = { "Access denied", "This request was blocked by the site's security rules." },
    [929] = { "Too many requests", "Too many requests from your address. Please try again later." },
    [978] = { "Access denied", "This request was blocked by the site's security rules." },
  },
  zh_CN = {
    [403] = { "域名已停用", "此域名在本服务上已停用。" },
    [404] = { "域名不存在", "本服务未提供此域名。" },
    [500] = { "内部错误", "边缘节点无法处理此请求，已记录。" },
    [502] = { "网关错误", "无法连接源站服务器。" },
    [503] = { "尚未配置", "此边缘节点尚无配置。" },
    [504] = { "网关超时", "源站服务器未及时响应。" },
    [903] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
    [904] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
    [929] = { "请求过多", "来自您地址的请求过多，请稍后再试。" },
    [978] = { "拒绝访问", "此请求已被网站的安全规则拦截。" },
  },
  zh_TW = {
    [403] = { "網域已停用", "此網域在本服務上已停用。" },
    [404] = { "網域不存在", "本服務未提供此網域。" },
    [500] = { "內部錯誤", "邊緣節點無法處理此請求，已記錄。" },
    [502] = { "閘道錯誤", "無法連線至來源伺服器。" },
    [503] = { "尚未設定", "此邊緣節點尚無設定。" },
    [504] = { "閘道逾時", "來源伺服器未及時回應。" },
    [903] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
    [904] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
    [929] = { "請求過多", "來自您位址的請求過多，請稍後再試。" },
    [978] = { "拒絕存取", "此請求已被網站的安全規則封鎖。" },
  },
}
local HTML_LANG = { en_US = "en", zh_CN = "zh-CN", zh_TW = "zh-TW" }

local PAGES = {}
for language, messages in pairs(MESSAGES) do
  local pages = {}
  for status, m in pairs(messages) do
    pages[status] = table.concat({
      "<!DOCTYPE html>\n<html lang=\"", HTML_LANG[language], "\"><head><meta charset=\"utf-8\"><title>",
      status, " ", m[1], "</title></head>\n",
      "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n",
      "<h1>", status, " ", m[1], "</h1>\n<p>", m[2], "</p>\n",
      "<hr><p style=\"color:#888\">Rampart</p>\n</body></html>\n",
    })
  end
  PAGES[language] = pages
end
local DEFAULT = PAGES.en_US

-- Sends the page for `status` and ends the request (any phase that may send a body): the site's own
-- page when the request's domain has one, else the edge's in the site's language.
function _M.send(status)
  local body
  local site = settings.for_request()
  if site then body = site.pages[status] or (PAGES[site.language] or DEFAULT)[status] end
  ngx.status = status
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(body or DEFAULT[status] or DEFAULT[500])
  return ngx.exit(ngx.HTTP_OK)
end

-- Used by the error_page named locations (502, 504, 500 from a Lua error).
function _M.send_error(status)
  return _M.send(status)
end

return _M

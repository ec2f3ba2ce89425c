-- The challenges (packages/contract/src/edge/challenge.ts; docs/decisions.md "Challenges at the
-- edge"): self-hosted pages that a blacklist or user-agent rule answers instead of blocking, and
-- the pass cookie that lets a client that solved one through the site's challenge rules.
--
-- Pass cookie `rampart_pass` = "<site>.<key id>.<expiry>.<mac>", mac = HMAC-SHA256 under the key
-- of that id over "p|<site>|<key id>|<expiry>|<client address, binary>", first 16 bytes, hex. The
-- keys (previous, current, next period) come with the data plane; the node checks a pass itself.
-- A cookie from another address, for another site, with another expiry or mac, signed with a key
-- the node no longer has, or expired, is no pass: the client is challenged again.
--
-- Challenge token (in the page, or the redirect's URL) = "<kind>.<site>.<rule>.<key id>.<expiry>.<nonce>.<mac>",
-- mac over "t|<kind>|<site>|<rule>|<key id>|<expiry>|<nonce>|<client address>": valid for
-- TOKEN_SECONDS, from the address it was given to, for its kind and site. <rule> is the anti-CC rule
-- that asked (0 for the lists and user-agent rules): passing takes back the error its challenge
-- counted (rampart.firewall_frequency). The answers come to CHALLENGE_PATH:
--   s  five-second shield: a proof of work, n such that SHA-256("<nonce>:<n>") starts with
--      SHIELD_BITS zero bits (the page's script finds it; ~2 million hashes on average)
--   c  click to verify: a trusted click (isTrusted) at least CLICK_MIN_MS after the page showed,
--      after pointer movement or from the keyboard, plus a small proof of work (CLICK_BITS)
--   r  redirect verification: a 302 to CHALLENGE_PATH that sets a probe cookie holding the nonce;
--      the follow-up must carry it (the client follows redirects and keeps cookies)
--   k  code: the characters of an image from the node's pool (rampart.challenge_pool), any case
--   d  slider: the piece's offset in the picture within SLIDER_TOLERANCE px, after a trusted drag
--      of at least DRAG_MIN_MS with at least DRAG_MIN_MOVES pointer moves
-- The code and slider tokens name their pool entry in the nonce ("<pool id, 8 hex><entry, 4 hex>
-- <random, 20 hex>"); the page loads the entry's images from CHALLENGE_PATH?i=<token>[&p=b|p]; the
-- answer stays on the node. Each of their tokens takes one answer (rampart_challenge_used): guessing
-- again needs a new challenge, which counts toward the anti-CC error limit like every challenge.
-- Without a pool on the node (the agent has not pushed one yet) they serve the shield instead.
-- Passing sets the pass cookie and sends the client back to the page it asked for (a path on the
-- same host only). Cost: nothing for a site without challenge rules; with them, one cookie read
-- per request and, when the cookie is present, one HMAC.
local ffi = require "ffi"
local store = require "rampart.store"
local pages = require "rampart.pages"
local cjson = require "cjson.safe"
local pool = require "rampart.challenge_pool"

local _M = {}

ffi.cdef [[
typedef struct evp_md_st RAMPART_EVP_MD;
const RAMPART_EVP_MD *EVP_sha256(void);
unsigned char *HMAC(const RAMPART_EVP_MD *evp_md, const void *key, int key_len, const unsigned char *d,
                    size_t n, unsigned char *md, unsigned int *md_len);
unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md);
int RAND_bytes(unsigned char *buf, int num);
]]
local C = ffi.C
local digest = ffi.new("unsigned char[32]")
local digest_len = ffi.new("unsigned int[1]")
local nonce_buf = ffi.new("unsigned char[16]")
local sha256_md = C.EVP_sha256()

local byte, char, format, sub, find, concat = string.byte, string.char, string.format, string.sub, string.find, table.concat
local floor, now = math.floor, ngx.time

_M.PATH = "/.rampart/challenge"
-- The challenge of each challenging action (packages/contract/src/edge/challenge.ts EDGE_CHALLENGES):
-- its letter in routes and tokens.
_M.LETTER = { shield = "s", click = "c", redirect = "r", code = "k", slider = "d" }
local COOKIE, PROBE = "rampart_pass", "rampart_probe"
local PERIOD_SECONDS = 21600
local TOKEN_SECONDS = 300
local SHIELD_BITS, CLICK_BITS, CLICK_MIN_MS = 21, 14, 400
local RETURN_MAX = 2048
local SLIDER_TOLERANCE, DRAG_MIN_MS, DRAG_MAX_MS, DRAG_MIN_MOVES = 4, 300, 120000, 5
local used = ngx.shared.rampart_challenge_used

local function hex(s)
  return (s:gsub(".", function(c) return format("%02x", byte(c)) end))
end

local HEX = {}
for i = 0, 255 do HEX[format("%02x", i)] = char(i) end
-- Hex → bytes (keys here, address ranges in rampart.firewall).
local function unhex(h)
  return (h:gsub("%x%x", HEX))
end
_M.unhex = unhex

local function hmac16(key, data)
  C.HMAC(sha256_md, key, #key, data, #data, digest, digest_len)
  return hex(ffi.string(digest, 16))
end

-- Whether SHA-256(s) starts with `bits` zero bits.
local function leading_zeros(s, bits)
  C.SHA256(s, #s, digest)
  local i = 0
  while bits >= 8 do
    if digest[i] ~= 0 then return false end
    i, bits = i + 1, bits - 8
  end
  return bits == 0 or digest[i] < 2 ^ (8 - bits)
end

local function random_hex()
  if C.RAND_bytes(nonce_buf, 16) ~= 1 then return nil end
  return hex(ffi.string(nonce_buf, 16))
end

-- The keys of generation `gen`, read once per worker and generation:
-- { [id] = binary secret }, the id that signs now, the pass lifetime.
local keys_gen, keys, pass_seconds = nil, {}, 1800
local function load(gen)
  if gen == keys_gen then return end
  local raw = store.challenge_keys(gen)
  keys, pass_seconds = {}, 1800
  if type(raw) == "table" and type(raw.keys) == "table" then
    for _, k in ipairs(raw.keys) do keys[k.id] = unhex(k.secret) end
    pass_seconds = tonumber(raw.passSeconds) or 1800
  end
  keys_gen = gen
end

-- The key that signs now: the current period's, else the newest older one; nil when none.
local function signing_key()
  local period = floor(now() / PERIOD_SECONDS)
  for id = period, period - 2, -1 do
    if keys[id] then return id, keys[id] end
  end
  return nil
end

-- The client address as the firewall matches it (binary, 4 or 16 bytes): an IPv4 client on an IPv6
-- socket (::ffff:a.b.c.d) is the IPv4 address.
local V4_MAPPED = "\0\0\0\0\0\0\0\0\0\0\255\255"
function _M.client_address(var)
  local addr = var.binary_remote_addr
  if #addr == 16 and sub(addr, 1, 12) == V4_MAPPED then return sub(addr, 13) end
  return addr
end

-- Whether the request carries a valid pass for `site` from `addr` (rampart.firewall, per request
-- of a site with challenge rules).
function _M.passed(site, var, addr, gen)
  local cookie = var.cookie_rampart_pass
  if cookie == nil then return false end
  load(gen)
  local s, kid, exp, mac = cookie:match("^(%d+)%.(%d+)%.(%d+)%.(%x+)$")
  if s == nil or tonumber(s) ~= site or tonumber(exp) < now() then return false end
  local key = keys[tonumber(kid)]
  if key == nil then return false end
  return hmac16(key, concat({ "p", s, kid, exp, addr }, "|")) == mac
end

local function token(kind, site, rule, addr, nonce)
  local kid, key = signing_key()
  nonce = nonce or random_hex()
  if kid == nil or nonce == nil then return nil end
  local exp = tostring(now() + TOKEN_SECONDS)
  local fields = { kind, tostring(site), rule, tostring(kid), exp, nonce }
  local mac = hmac16(key, concat({ "t", fields[1], fields[2], rule, fields[4], exp, nonce, addr }, "|"))
  return concat(fields, ".") .. "." .. mac, nonce
end

-- The token's kind, nonce and rule when it is valid for `site` and `addr` now, else nil.
local function check_token(t, site, addr)
  if type(t) ~= "string" or #t > 200 then return nil end
  local kind, s, rule, kid, exp, nonce, mac = t:match("^([scrkd])%.(%d+)%.(%d+)%.(%d+)%.(%d+)%.(%x+)%.(%x+)$")
  if kind == nil or tonumber(s) ~= site or tonumber(exp) < now() then return nil end
  local key = keys[tonumber(kid)]
  if key == nil or hmac16(key, concat({ "t", kind, s, rule, kid, exp, nonce, addr }, "|")) ~= mac then return nil end
  return kind, nonce, rule
end

-- A path on this host to go back to: "/…" but not "//…" or "/\…", printable, bounded; else "/".
local function safe_return(r)
  if type(r) ~= "string" or #r > RETURN_MAX or byte(r, 1) ~= 47 then return "/" end
  local second = byte(r, 2)
  if second == 47 or second == 92 then return "/" end
  if find(r, "[%z\1-\32\127-\255]") then return "/" end
  return r
end

local ESCAPES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }
local function escape(s)
  return (s:gsub("[&<>\"']", ESCAPES))
end

local TEXT = {
  en_US = {
    shield_title = "Checking your browser",
    shield_text = "This site makes sure visitors are people. Your browser is doing a short check; the page opens by itself in a few seconds.",
    click_title = "Verify you are a person",
    click_text = "This site makes sure visitors are people. Click the button to continue.",
    click_button = "I am a person",
    working = "Verifying…",
    nojs = "This check needs JavaScript. Turn JavaScript on for this site and reload the page.",
    failed_title = "Verification failed",
    failed_text = "The check did not succeed. Make sure your browser keeps cookies for this site, then try again.",
    again = "Try again",
    code_title = "Enter the code",
    code_text = "This site makes sure visitors are people. Type the characters you see in the picture.",
    code_label = "Characters",
    code_submit = "Continue",
    another = "Show another picture",
    slider_title = "Complete the puzzle",
    slider_text = "This site makes sure visitors are people. Drag the slider until the piece fills the gap in the picture.",
    slider_handle = "Drag to the right",
  },
  zh_CN = {
    shield_title = "正在检查您的浏览器",
    shield_text = "本网站需要确认访问者是真人。您的浏览器正在进行简短检查，几秒钟后页面会自动打开。",
    click_title = "请验证您是真人",
    click_text = "本网站需要确认访问者是真人。请点击按钮继续。",
    click_button = "我是真人",
    working = "正在验证…",
    nojs = "此检查需要 JavaScript。请为本网站启用 JavaScript 后重新加载页面。",
    failed_title = "验证失败",
    failed_text = "检查未通过。请确认浏览器允许本网站保存 Cookie，然后重试。",
    again = "重试",
    code_title = "请输入验证码",
    code_text = "本网站需要确认访问者是真人。请输入图片中的字符。",
    code_label = "字符",
    code_submit = "继续",
    another = "换一张图片",
    slider_title = "请完成拼图",
    slider_text = "本网站需要确认访问者是真人。请拖动滑块，使拼图块填满图片中的缺口。",
    slider_handle = "向右拖动",
  },
  zh_TW = {
    shield_title = "正在檢查您的瀏覽器",
    shield_text = "本網站需要確認訪客是真人。您的瀏覽器正在進行簡短檢查，幾秒後頁面會自動開啟。",
    click_title = "請驗證您是真人",
    click_text = "本網站需要確認訪客是真人。請點擊按鈕繼續。",
    click_button = "我是真人",
    working = "正在驗證…",
    nojs = "此檢查需要 JavaScript。請為本網站啟用 JavaScript 後重新載入頁面。",
    failed_title = "驗證失敗",
    failed_text = "檢查未通過。請確認瀏覽器允許本網站儲存 Cookie，然後重試。",
    again = "重試",
    code_title = "請輸入驗證碼",
    code_text = "本網站需要確認訪客是真人。請輸入圖片中的字元。",
    code_label = "字元",
    code_submit = "繼續",
    another = "換一張圖片",
    slider_title = "請完成拼圖",
    slider_text = "本網站需要確認訪客是真人。請拖動滑桿，使拼圖塊填滿圖片中的缺口。",
    slider_handle = "向右拖動",
  },
}

-- The first 32 bits of SHA-256 of an ASCII string shorter than 56 bytes (one block), and the
-- search for the proof of work: n such that SHA-256(nonce + ":" + n) starts with `bits` zero bits.
local POW_SCRIPT = [[
var K=new Int32Array([1116352408,1899447441,3049323471,3921009573,961987163,1508970993,2453635748,2870763221,3624381080,310598401,607225278,1426881987,1925078388,2162078206,2614888103,3248222580,3835390401,4022224774,264347078,604807628,770255983,1249150122,1555081692,1996064986,2554220882,2821834349,2952996808,3210313671,3336571891,3584528711,113926993,338241895,666307205,773529912,1294757372,1396182291,1695183700,1986661051,2177026350,2456956037,2730485921,2820302411,3259730800,3345764771,3516065817,3600352804,4094571909,275423344,430227734,506948616,659060556,883997877,958139571,1322822218,1537002063,1747873779,1955562222,2024104815,2227730452,2361852424,2428436474,2756734187,3204031479,3329325298]),W=new Int32Array(64);
function h0(s){var w=W,i,l=s.length,a,b,t1,t2;w.fill(0);
for(i=0;i<l;i++)w[i>>2]|=s.charCodeAt(i)<<(24-(i&3)*8);w[l>>2]|=128<<(24-(l&3)*8);w[15]=l*8;
for(i=16;i<64;i++){a=w[i-15];b=w[i-2];w[i]=(((a>>>7|a<<25)^(a>>>18|a<<14)^(a>>>3))+((b>>>17|b<<15)^(b>>>19|b<<13)^(b>>>10))+w[i-7]+w[i-16])|0;}
var A=1779033703,B=-1150833019,C=1013904242,D=-1521486534,E=1359893119,F=-1694144372,G=528734635,H=1541459225;
for(i=0;i<64;i++){t1=(H+((E>>>6|E<<26)^(E>>>11|E<<21)^(E>>>25|E<<7))+((E&F)^(~E&G))+K[i]+w[i])|0;
t2=(((A>>>2|A<<30)^(A>>>13|A<<19)^(A>>>22|A<<10))+((A&B)^(A&C)^(B&C)))|0;H=G;G=F;F=E;E=(D+t1)|0;D=C;C=B;B=A;A=(t1+t2)|0;}
return (A+1779033703)>>>0;}
function pow(nonce,bits,done){var n=0,p=nonce+":";(function step(){for(var end=n+50000;n<end;n++){if(h0(p+n)>>>(32-bits)===0)return done(n);}setTimeout(step,0);})();}
]]

local function page(language, lang, title, body, script)
  return concat({
    "<!DOCTYPE html>\n<html lang=\"", lang, "\"><head><meta charset=\"utf-8\">",
    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><meta name=\"robots\" content=\"noindex\">",
    "<title>", title, "</title></head>\n",
    "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n<h1>", title, "</h1>\n",
    body,
    -- A page without a script (the code) works without JavaScript and says nothing about it.
    script and ("<noscript><p><strong>" .. TEXT[language].nojs .. "</strong></p></noscript>\n") or "",
    script and ("<script>" .. POW_SCRIPT .. script .. "</script>\n") or "",
    "<hr><p style=\"color:#888\">Rampart</p>\n</body></html>\n",
  })
end

-- The answer form: the token, the return path, and the answer fields `n` and `i` (hidden unless
-- the page brings its own `n`).
local function form(t, r, extra, own_n)
  return concat({
    "<form id=\"f\" method=\"post\" action=\"", _M.PATH, "\">",
    "<input type=\"hidden\" name=\"t\" value=\"", t, "\"><input type=\"hidden\" name=\"r\" value=\"", escape(r), "\">",
    own_n and "" or "<input type=\"hidden\" name=\"n\" value=\"\">",
    "<input type=\"hidden\" name=\"i\" value=\"\">", extra or "", "</form>\n",
  })
end

local function send(status, body)
  ngx.status = status
  local header = ngx.header
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  header["Vary"] = "Accept-Language"
  ngx.print(body)
  return ngx.exit(ngx.HTTP_OK)
end

local function shield_page(t, nonce, r)
  local language, lang = pages.language()
  local text = TEXT[language]
  return page(language, lang, text.shield_title,
    concat({ "<p>", text.shield_text, "</p>\n", form(t, r) }),
    "pow(" .. cjson.encode(nonce) .. "," .. SHIELD_BITS ..
      ",function(n){var f=document.getElementById('f');f.n.value=n;f.submit();});")
end

local function click_page(t, nonce, r)
  local language, lang = pages.language()
  local text = TEXT[language]
  local button = concat({
    "<button type=\"button\" id=\"b\" style=\"font-size:1.2em;padding:.6em 1.4em\">", text.click_button, "</button>",
    "<p id=\"w\" hidden>", text.working, "</p>",
  })
  return page(language, lang, text.click_title,
    concat({ "<p>", text.click_text, "</p>\n", form(t, r, button) }),
    "var t0=Date.now(),moves=0,b=document.getElementById('b');" ..
      "document.addEventListener('pointermove',function(){moves++;});" ..
      "b.addEventListener('click',function(e){var dt=Date.now()-t0,kb=e.detail===0?1:0,tr=e.isTrusted?1:0;" ..
      "b.disabled=true;document.getElementById('w').hidden=false;" ..
      "pow(" .. cjson.encode(nonce) .. "," .. CLICK_BITS .. ",function(n){var f=document.getElementById('f');" ..
      "f.n.value=n;f.i.value=dt+','+moves+','+tr+','+kb;f.submit();});});")
end

-- The code page: the picture, a text field and a button; works without JavaScript.
local function code_page(t, r)
  local language, lang = pages.language()
  local text = TEXT[language]
  local fields = concat({
    "<p><label>", text.code_label, " <input name=\"n\" id=\"n\" autocomplete=\"off\" autocapitalize=\"characters\"",
    " spellcheck=\"false\" maxlength=\"8\" required autofocus style=\"font-size:1.2em;width:8em\"></label> ",
    "<button type=\"submit\" id=\"b\" style=\"font-size:1.1em\">", text.code_submit, "</button></p>",
  })
  return page(language, lang, text.code_title,
    concat({
      "<p>", text.code_text, "</p>\n",
      "<p><img id=\"img\" src=\"", _M.PATH, "?i=", t, "\" width=\"200\" height=\"70\" alt=\"\"></p>\n",
      form(t, r, fields, true),
      "<p><a href=\"", escape(r), "\">", text.another, "</a></p>\n",
    }))
end

-- The slider page: the picture with its gap, the piece at its row, and a handle the person drags;
-- on release the script posts the piece's offset and the drag's duration, moves and trust.
local SLIDER_MAX = 250 -- the picture's width less the piece's box (apps/edge/src/challenge-pool/slider-image.ts)
local function slider_page(t, r, y)
  local language, lang = pages.language()
  local text = TEXT[language]
  local base = _M.PATH .. "?i=" .. t
  local body = concat({
    "<p>", text.slider_text, "</p>\n",
    "<div style=\"position:relative;width:300px;height:150px;margin:0 auto;user-select:none\">",
    "<img src=\"", base, "&amp;p=b\" width=\"300\" height=\"150\" alt=\"\" draggable=\"false\" style=\"display:block\">",
    "<img id=\"pc\" src=\"", base, "&amp;p=p\" width=\"50\" height=\"50\" alt=\"\" draggable=\"false\"",
    " style=\"position:absolute;left:0;top:", y, "px\"></div>\n",
    "<div style=\"position:relative;width:300px;height:40px;margin:12px auto;background:#e8e8e8;border-radius:20px;touch-action:none\">",
    "<div id=\"h\" role=\"slider\" aria-label=\"", text.slider_handle, "\" aria-valuemin=\"0\" aria-valuemax=\"", SLIDER_MAX, "\"",
    " style=\"position:absolute;left:0;top:0;width:50px;height:40px;background:#1677ff;color:#fff;border-radius:20px;",
    "cursor:grab;line-height:40px;touch-action:none\">&#8594;</div></div>\n",
    form(t, r),
  })
  local script = "var h=document.getElementById('h'),pc=document.getElementById('pc'),x=0,sx=0,t0=0,moves=0,on=false,tr=1;" ..
    "h.addEventListener('pointerdown',function(e){on=true;sx=e.clientX-x;t0=Date.now();moves=0;tr=e.isTrusted?1:0;h.setPointerCapture(e.pointerId);});" ..
    "h.addEventListener('pointermove',function(e){if(!on)return;moves++;if(!e.isTrusted)tr=0;" ..
    "x=Math.max(0,Math.min(" .. SLIDER_MAX .. ",e.clientX-sx));h.style.left=x+'px';pc.style.left=x+'px';});" ..
    "h.addEventListener('pointerup',function(e){if(!on)return;on=false;var f=document.getElementById('f');" ..
    "f.n.value=Math.round(x);f.i.value=(Date.now()-t0)+','+moves+','+(tr&&e.isTrusted?1:0);f.submit();});"
  return page(language, lang, text.slider_title, body, script)
end

local function failed_page(r)
  local language, lang = pages.language()
  local text = TEXT[language]
  return concat({
    "<!DOCTYPE html>\n<html lang=\"", lang, "\"><head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"noindex\">",
    "<title>", text.failed_title, "</title></head>\n",
    "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n<h1>", text.failed_title, "</h1>\n",
    "<p>", text.failed_text, "</p>\n<p><a href=\"", escape(r), "\">", text.again, "</a></p>\n",
    "<hr><p style=\"color:#888\">Rampart</p>\n</body></html>\n",
  })
end

local function cookie_attributes(var, max_age)
  return "; Path=/; Max-Age=" .. max_age .. "; HttpOnly; SameSite=Lax" .. (var.scheme == "https" and "; Secure" or "")
end

-- Answers a request that a challenge rule caught: kind "s", "c", "r", "k" or "d" for `site`, asked
-- by the anti-CC rule `rule` ("0": a list or user-agent rule).
local function challenge(kind, site, rule, var, gen)
  load(gen)
  local addr = _M.client_address(var)
  local nonce, y
  if kind == "k" or kind == "d" then
    local random = random_hex()
    local id, index = pool.pick(kind, tonumber(sub(random or "0000", 1, 4), 16))
    if id == nil or random == nil then
      -- No pool on the node yet: the shield, a challenge that needs no images.
      kind = "s"
    else
      nonce = id .. format("%04x", index) .. sub(random, 13)
      if kind == "d" then y = select(2, pool.answer(id, "d", index)) end
      if kind == "d" and y == nil then kind, nonce = "s", nil end
    end
  end
  local t
  t, nonce = token(kind, site, rule, addr, nonce)
  -- No key to sign with (a data plane without keys; the contract refuses one): deny.
  if t == nil then return pages.send(4030) end
  local r = safe_return(var.request_uri)
  if kind == "r" then
    ngx.header["Set-Cookie"] = PROBE .. "=" .. nonce .. cookie_attributes(var, TOKEN_SECONDS)
    ngx.header["Cache-Control"] = "no-store"
    return ngx.redirect(_M.PATH .. "?t=" .. t .. "&r=" .. ngx.escape_uri(r), 302)
  end
  if kind == "c" then return send(403, click_page(t, nonce, r)) end
  if kind == "k" then return send(403, code_page(t, r)) end
  if kind == "d" then return send(403, slider_page(t, r, y)) end
  return send(403, shield_page(t, nonce, r))
end

-- The pool entry a code or slider nonce names: pool id, index.
local function entry_of(nonce)
  return sub(nonce, 1, 8), tonumber(sub(nonce, 9, 12), 16)
end

-- Whether the answer in `args` passes the code or slider challenge with `nonce`. The token takes
-- one answer: a second one (right or wrong) fails.
local function pool_answer_ok(kind, nonce, args)
  local ok, err, forcible = used:add(nonce, true, TOKEN_SECONDS)
  if not ok then return false end
  if forcible then ngx.log(ngx.WARN, "rampart challenge: rampart_challenge_used is full; evicting older answers") end
  local id, index = entry_of(nonce)
  local n = args.n
  if type(n) ~= "string" or #n > 16 then return false end
  if kind == "k" then
    local want = pool.answer(id, "k", index)
    return want ~= nil and n:gsub("%s", ""):upper() == want
  end
  local x = pool.answer(id, "d", index)
  if x == nil or not find(n, "^%d+$") or math.abs(tonumber(n) - x) > SLIDER_TOLERANCE then return false end
  local i = args.i
  if type(i) ~= "string" then return false end
  local dt, moves, trusted = i:match("^(%d+),(%d+),([01])$")
  if dt == nil or trusted ~= "1" or tonumber(moves) < DRAG_MIN_MOVES then return false end
  dt = tonumber(dt)
  return dt >= DRAG_MIN_MS and dt <= DRAG_MAX_MS
end

-- Answers CHALLENGE_PATH?i=<token>[&p=b|p]: an image of the code or slider entry the token names,
-- for the address and site the token was given to.
local function serve_image(site, var, args)
  local kind, nonce = check_token(args.i, site, _M.client_address(var))
  local png
  if kind == "k" or kind == "d" then
    local id, index = entry_of(nonce)
    png = pool.image(id, kind, index, args.p)
  end
  if png == nil then return pages.send(404) end
  ngx.header["Content-Type"] = "image/png"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(png)
  return ngx.exit(ngx.HTTP_OK)
end

-- Whether the answer in `args` passes the challenge of `kind` with `nonce`.
local function answer_ok(kind, nonce, args, var)
  if kind == "r" then return var.cookie_rampart_probe == nonce end
  if kind == "k" or kind == "d" then return pool_answer_ok(kind, nonce, args) end
  local n = args.n
  if type(n) ~= "string" or not find(n, "^%d+$") or #n > 12 then return false end
  if kind == "s" then return leading_zeros(nonce .. ":" .. n, SHIELD_BITS) end
  local i = args.i
  if type(i) ~= "string" then return false end
  local dt, moves, trusted, keyboard = i:match("^(%d+),(%d+),([01]),([01])$")
  if dt == nil or tonumber(dt) < CLICK_MIN_MS or trusted ~= "1" then return false end
  if moves == "0" and keyboard ~= "1" then return false end
  return leading_zeros(nonce .. ":" .. n, CLICK_BITS)
end

-- Answers a request to PATH on a site with challenge rules: checks the answer, and on success sets
-- the pass cookie and sends the client back to the page it asked for.
local function verify(site, var, gen)
  load(gen)
  local method = var.request_method
  local args
  if method == "POST" then
    ngx.req.read_body()
    args = ngx.req.get_post_args(8)
  else
    args = ngx.req.get_uri_args(8)
  end
  -- nil when the body went to a temporary file (larger than any answer): no answer.
  args = args or {}
  if method == "GET" and args.i ~= nil then return serve_image(site, var, args) end
  local r = safe_return(type(args.r) == "string" and args.r or "/")
  local addr = _M.client_address(var)
  local kind, nonce, rule = check_token(args.t, site, addr)
  var.rampart_fw_kind = "challenge"
  if kind == nil or not answer_ok(kind, nonce, args, var) then
    var.rampart_fw_action = "fail"
    return send(403, failed_page(r))
  end
  local kid, key = signing_key()
  if kid == nil then return send(403, failed_page(r)) end
  local exp = tostring(now() + pass_seconds)
  local s = tostring(site)
  local mac = hmac16(key, concat({ "p", s, tostring(kid), exp, addr }, "|"))
  local attributes = cookie_attributes(var, pass_seconds)
  local cookies = { COOKIE .. "=" .. concat({ s, tostring(kid), exp, mac }, ".") .. attributes }
  if kind == "r" then cookies[2] = PROBE .. "=" .. cookie_attributes(var, 0) end
  ngx.header["Set-Cookie"] = cookies
  ngx.header["Cache-Control"] = "no-store"
  var.rampart_fw_action = "pass"
  if rule ~= "0" then
    var.rampart_fw_rule = rule
    if _M.on_pass then _M.on_pass(rule, addr) end
  end
  return ngx.redirect(r, method == "POST" and 303 or 302)
end

-- The route of a challenge (rampart.router): kind s, c or r, the site, the anti-CC rule or 0.
function _M.route(kind, site, rule)
  return "c" .. kind .. site .. "." .. rule
end

-- Set by rampart.firewall_frequency: called with an anti-CC rule id and the client address when a
-- client passes the challenge that rule asked for.
_M.on_pass = nil

-- elsewhere() in rampart.router: route "c<kind><site>.<rule>" — kind s, c or r serves that
-- challenge; "cv<site>" checks an answer.
function _M.act(route, var)
  local kind = sub(route, 2, 2)
  local site, rule = route:match("^(%d+)%.?(%d*)$", 3)
  site = tonumber(site)
  local gen = store.generation()
  if gen == nil or site == nil then return pages.send(503) end
  if kind == "v" then return verify(site, var, gen) end
  return challenge(kind, site, rule ~= "" and rule or "0", var, gen)
end

-- For tests (apps/edge/test): the proof-of-work check the node applies.
_M.leading_zeros = leading_zeros

return _M

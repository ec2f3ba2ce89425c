-- The challenge pages (rampart.challenge; docs/decisions "new-harden-challenge-work"): HTML in the
-- visitor's language with the scripts that answer them. What a page's script reports is never
-- trusted: the node checks the proof of work against the nonce it issued, at the bits the token
-- carries, and the slider's offset against the pool entry's; the interaction itself (a click, a
-- drag) only starts or sends the answer.
local cjson = require "cjson.safe"
local pages = require "rampart.pages"

local _M = {}

local concat = table.concat

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


-- Pages and their parts are lists of strings (nested), which ngx.print sends one after the other:
-- never joined in Lua. A long string that differs per request only in its middle (the token, the
-- nonce, the request id) shares one bucket of LuaJIT's string table with every other one alive
-- (its hash reads a few bytes at the ends and the middle), and each new one is compared with them
-- all (rampart.pages; bench/README.md).
local function page(language, lang, title, body, script)
  return {
    "<!DOCTYPE html>\n<html lang=\"", lang, "\"><head><meta charset=\"utf-8\">",
    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><meta name=\"robots\" content=\"noindex\">",
    "<title>", title, "</title></head>\n",
    "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n<h1>", title, "</h1>\n",
    body,
    -- A page without a script (the code) works without JavaScript and says nothing about it.
    script and ("<noscript><p><strong>" .. TEXT[language].nojs .. "</strong></p></noscript>\n") or "",
    script and { "<script>", POW_SCRIPT, script, "</script>\n" } or "",
    "<hr><p style=\"color:#888\">Rampart</p>\n", pages.footer_parts(language),
  }
end

-- The answer form: the token, the return path, the hidden answer fields `hidden` and `extra`.
local function form(path, t, r, hidden, extra)
  local out = {
    "<form id=\"f\" method=\"post\" action=\"", path, "\">",
    "<input type=\"hidden\" name=\"t\" value=\"", t, "\"><input type=\"hidden\" name=\"r\" value=\"", escape(r), "\">",
  }
  for _, name in ipairs(hidden) do out[#out + 1] = "<input type=\"hidden\" name=\"" .. name .. "\" value=\"\">" end
  out[#out + 1] = extra or ""
  out[#out + 1] = "</form>\n"
  return out
end

-- The script that starts the proof of work for `nonce` at `bits` as the page loads and keeps its
-- answer in `work` (null until found), calling `ready` (when set) once it is.
local function work_script(nonce, bits)
  return { "var work=null,ready=null;pow(", cjson.encode(nonce), ",", bits, ",function(n){work=n;if(ready)ready();});" }
end

-- The shield: the proof of work, then the form posts itself.
function _M.shield(path, t, nonce, bits, r)
  local language, lang = pages.language()
  local text = TEXT[language]
  return page(language, lang, text.shield_title,
    { "<p>", text.shield_text, "</p>\n", form(path, t, r, { "n" }) },
    { work_script(nonce, bits),
      "ready=function(){var f=document.getElementById('f');f.n.value=work;f.submit();};if(work!==null)ready();" })
end

-- Click to verify: the proof of work runs while the person reads; the click sends it (or waits for it).
function _M.click(path, t, nonce, bits, r)
  local language, lang = pages.language()
  local text = TEXT[language]
  local button = concat({
    "<button type=\"button\" id=\"b\" style=\"font-size:1.2em;padding:.6em 1.4em\">", text.click_button, "</button>",
    "<p id=\"w\" hidden>", text.working, "</p>",
  })
  return page(language, lang, text.click_title,
    { "<p>", text.click_text, "</p>\n", form(path, t, r, { "n" }, button) },
    { work_script(nonce, bits),
      "var b=document.getElementById('b');b.addEventListener('click',function(){b.disabled=true;" ..
      "document.getElementById('w').hidden=false;ready=function(){var f=document.getElementById('f');" ..
      "f.n.value=work;f.submit();};if(work!==null)ready();});" })
end

-- The code page: the picture, a text field and a button; works without JavaScript.
function _M.code(path, t, r)
  local language, lang = pages.language()
  local text = TEXT[language]
  local fields = concat({
    "<p><label>", text.code_label, " <input name=\"n\" id=\"n\" autocomplete=\"off\" autocapitalize=\"characters\"",
    " spellcheck=\"false\" maxlength=\"8\" required autofocus style=\"font-size:1.2em;width:8em\"></label> ",
    "<button type=\"submit\" id=\"b\" style=\"font-size:1.1em\">", text.code_submit, "</button></p>",
  })
  return page(language, lang, text.code_title,
    {
      "<p>", text.code_text, "</p>\n",
      "<p><img id=\"img\" src=\"", path, "?i=", t, "\" width=\"200\" height=\"70\" alt=\"\"></p>\n",
      form(path, t, r, {}, fields),
      "<p><a href=\"", escape(r), "\">", text.another, "</a></p>\n",
    })
end

-- The slider page: the picture with its gap, the piece at its row, and a handle the person drags;
-- on release the script posts the piece's offset `n` with the proof of work `w` (waiting for it).
local SLIDER_MAX = 250 -- the picture's width less the piece's box (apps/edge/src/challenge-pool/slider-image.ts)
function _M.slider(path, t, nonce, bits, r, y)
  local language, lang = pages.language()
  local text = TEXT[language]
  local base = path .. "?i=" .. t
  local body = {
    "<p>", text.slider_text, "</p>\n",
    "<div style=\"position:relative;width:300px;height:150px;margin:0 auto;user-select:none\">",
    "<img src=\"", base, "&amp;p=b\" width=\"300\" height=\"150\" alt=\"\" draggable=\"false\" style=\"display:block\">",
    "<img id=\"pc\" src=\"", base, "&amp;p=p\" width=\"50\" height=\"50\" alt=\"\" draggable=\"false\"",
    " style=\"position:absolute;left:0;top:", y, "px\"></div>\n",
    "<div style=\"position:relative;width:300px;height:40px;margin:12px auto;background:#e8e8e8;border-radius:20px;touch-action:none\">",
    "<div id=\"h\" role=\"slider\" aria-label=\"", text.slider_handle, "\" aria-valuemin=\"0\" aria-valuemax=\"", SLIDER_MAX, "\"",
    " style=\"position:absolute;left:0;top:0;width:50px;height:40px;background:#1677ff;color:#fff;border-radius:20px;",
    "cursor:grab;line-height:40px;touch-action:none\">&#8594;</div></div>\n",
    "<p id=\"w\" hidden>", text.working, "</p>\n",
    form(path, t, r, { "n", "w" }),
  }
  local script = { work_script(nonce, bits),
    "var h=document.getElementById('h'),pc=document.getElementById('pc'),x=0,sx=0,on=false;" ..
    "h.addEventListener('pointerdown',function(e){on=true;sx=e.clientX-x;h.setPointerCapture(e.pointerId);});" ..
    "h.addEventListener('pointermove',function(e){if(!on)return;" ..
    "x=Math.max(0,Math.min(" .. SLIDER_MAX .. ",e.clientX-sx));h.style.left=x+'px';pc.style.left=x+'px';});" ..
    "h.addEventListener('pointerup',function(){if(!on)return;on=false;document.getElementById('w').hidden=false;" ..
    "ready=function(){var f=document.getElementById('f');f.n.value=Math.round(x);f.w.value=work;f.submit();};" ..
    "if(work!==null)ready();});" }
  return page(language, lang, text.slider_title, body, script)
end

function _M.failed(r)
  local language, lang = pages.language()
  local text = TEXT[language]
  return {
    "<!DOCTYPE html>\n<html lang=\"", lang, "\"><head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"noindex\">",
    "<title>", text.failed_title, "</title></head>\n",
    "<body style=\"font-family:sans-serif;text-align:center;padding-top:10%\">\n<h1>", text.failed_title, "</h1>\n",
    "<p>", text.failed_text, "</p>\n<p><a href=\"", escape(r), "\">", text.again, "</a></p>\n",
    "<hr><p style=\"color:#888\">Rampart</p>\n", pages.footer_parts(language),
  }
end

return _M

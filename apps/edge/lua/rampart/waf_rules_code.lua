-- The WAF's pattern rules of the code-injection groups (PHP, Java, server-side templates and
-- JavaScript, SSRF, known CVEs' value shapes, XXE), written and guarded as rampart.waf_rules
-- describes (which joins them to its own groups: callers read rampart.waf_rules only).
local _M = {}

_M.RULES = {
  php = {
    { id = 105001, score = 8, re = [=[<\?(?:php\b|=)|<\?\s{0,4}$|\{/php\}|<\?\s+[a-z$]|<\?(?!xml\s+version|xml-stylesheet)[a-z]{1,5}\s{0,4}:|\[[/\\]?php\]]=] },
    { id = 105002, score = 8, re = [=[\bphp://(?:input|filter|fd|memory|temp|stdin|stdout|stderr|output)|\b(?:expect|ssh2\.(?:shell|exec|tunnel|sftp|scp)|ogg|rar|zlib|glob|phar|data)://]=] },
    -- Calls of PHP functions that run code, commands or read files.
    -- PHP functions called with a comment and a line break before "(" ("exec //c\n (x)"); plain
    -- calls are read by php_calls() below, a word lookup at each "(".
    { id = 105003, score = 8,
      re = [=[(?:^|[^\w$>:.])(?:eval|assert|system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|create_function|call_user_func|preg_replace|file_get_contents|file_put_contents|fopen|readfile|include|require|unserialize|base64_decode|phpinfo)\s{0,10}(?://|#)[^\n]{0,80}\n\s{0,10}\(]=] },
    -- A parenthesised callee called with a string: (system)('id'), ($f)('ls'), (x)/**/('id').
    { id = 105010, score = 5, re = [=[\(\s{0,4}[\w$.'"()+\s]{1,40}\)\s{0,4}(?:/\*[^*]{0,40}\*/\s{0,4})?\(\s{0,4}['"][^'"]{1,60}['"]\s{0,4}\)]=] },
    { id = 105009, score = 8, re = [=[(?:^|[^\w$>:.@])(?:include|require)(?:_once)?\s*\(?\s*['"$](?:https?:|ftp:|php:|data:|/|\.\.|\$_)]=] },
    -- PHP's superglobals in code: after an operator, a tag or a statement word, or read with a
    -- subscript, called, assigned or concatenated (prose names them: "how to read $_GET").
    { id = 105004, score = 8, re = [=[(?:[(=.@!{]|<\?(?:php)?|\b(?:echo|print|return|eval|assert|isset|empty|unset|foreach|include|require)\b)\s{0,4}(?:\$_(?:get|post|request|cookie|server|files|env|session)\b|\$globals\b|\$http_(?:get|post|cookie|server|env|post_files)_vars\b|\$http_raw_post_data\b)|(?:\$_(?:get|post|request|cookie|server|files|env|session)\b|\$globals\b|\$http_(?:get|post|cookie|server|env|post_files)_vars\b|\$http_raw_post_data\b)\s{0,4}(?:\[[^\]\[]{0,60}\]\s{0,4}){1,3}(?:[;)(=]|\?>|\.\s{0,4}['"$])|(?:\$_(?:get|post|request|cookie|server|files|env|session)\b|\$globals\b|\$http_(?:get|post|cookie|server|env|post_files)_vars\b|\$http_raw_post_data\b)\s{0,4}(?:\(|=(?!=)|\?>|\.\s{0,4}['"$])]=] },
    -- Serialized PHP objects.
    { id = 105005, score = 8, re = [=[(?:^|[;{])[oc]:\d{1,4}:"[\w\\]{1,128}":\d{1,4}:\{|\ba:\d{1,4}:\{[si]:\d{1,6}[:;]]=] },
    -- Variable functions and obfuscated calls: $x(...), $_[...](...), "sys"."tem"(...), ${'x'}.
    { id = 105006, score = 8, re = [=[\$(?:\{[^}]{1,40}\}|[a-z_]\w{0,29})(?:(?:\s{1,4}|/\*[^*]{0,40}\*/|(?:#|//)[^\n]{0,40}\n){0,4}(?:\[[^\]]{0,40}\]{1,3}|\{[^}]{0,20}\})){0,3}(?:\s{1,4}|/\*[^*]{0,40}\*/|(?:#|//)[^\n]{0,40}\n){0,4}\((?!\s*https?:)[^)]{0,200}\)|\$\{\s*['"][^'"]{0,40}['"]\s*\}|\$\s{1,20}\{\s{0,20}(?:['"$@_]|[a-z_]\w{0,40}\s{0,20}\})|\$\{\s{0,20}[$@]|["'][\w\\]{1,20}["']\s*\.\s*["'][\w\\]{1,20}["']\s*\(|["'](?:\\x[0-9a-f]{2}|\\\d{3}|[a-z]){3,40}["']\s*\(]=] },
    -- Functions of PHP whose names no prose holds, even glued to other letters.
    -- (105011: PHP functions glued to other letters, read by php_calls() below.)
    { id = 105012, score = 8, re = [=[\(\s{0,4}(?:/\*[^*]{0,40}\*/\s{0,4})?(?:system|exec|passthru|shell_exec|eval|assert|popen|proc_open|pcntl_exec)\s{0,4}\)\s{0,4}\(]=] },
    -- A function name in brackets called through the array ("[system][0]('id')", "(['sys'.'tem'])[0]").
    { id = 105013, score = 8, re = [=[\[\s{0,4}['"]?\s{0,4}(?:system|exec|passthru|shell_exec|popen|proc_open|pcntl_exec|eval|assert|sys['"]?\s{0,4}\.\s{0,4}['"]?tem)\s{0,4}['"]?\s{0,4}\]\s{0,4}\]?\s{0,4}\)?\s{0,4}(?:\[\s{0,4}\d{1,3}\s{0,4}\]|\{[^}]{0,40}\}|\()]=] },
    -- A value that is a php.ini line (written to a .user.ini or ini_set by a vulnerable handler).
    { id = 105014, score = 5, re = [=[^\s{0,4}(?:engine|extension|precision|serialize_precision|smtp|smtp_port|sendmail_from|unserialize_max_depth|unserialize_callback_func|default_charset|auto_detect_line_endings|user_ini\.filename|user_ini\.cache_ttl|zend\.assertions|highlight\.[a-z]{3,10}|variables_order|request_order|cgi\.[a-z_]{3,30}|fastcgi\.[a-z_]{3,30}|file_uploads|max_input_vars|arg_separator\.[a-z]{3,6}|doc_root|user_dir)\s{0,4}=]=] },
    -- php.ini directives that change what the interpreter allows.
    { id = 105007, score = 5, re = [=[\b(?:allow_url_(?:fopen|include)|auto_(?:prepend|append)_file|disable_functions|open_basedir|safe_mode|register_globals|opcache\.[a-z_]{3,40}|suhosin\.[a-z_.]{3,40}|session\.save_path|upload_tmp_dir|display_errors|log_errors|error_log|include_path|extension_dir|zend_extension|short_open_tag|magic_quotes_gpc|enable_dl|expose_php|mbstring\.[a-z_]{3,40}|pcre\.[a-z_]{3,40}|xdebug\.[a-z_]{3,40}|phar\.[a-z_]{3,40}|zend\.[a-z_]{3,40}|assert\.[a-z_]{3,40}|apc\.[a-z_]{3,40}|sendmail_path|memory_limit|max_execution_time|post_max_size|upload_max_filesize|realpath_cache_\w{3,20})\s*=]=] },
    { id = 105008, score = 5, re = [=[\b(?:php_uname|phpinfo|phpversion|get_defined_functions|get_loaded_extensions)\b]=] },
  },
  java = {
    -- Log4Shell and other lookups (after ${lower:j}-style obfuscation is folded, rampart.waf).
    { id = 106001, score = 8, re = [=[\$\{\s{0,4}jndi\s{0,4}:|\$\{\s{0,4}(?:ldaps?|rmi|dns|iiop|corba|nds|nis)\s{0,4}://|jndi:(?:ldaps?|rmi|dns|iiop|corba|nds|nis|http)s?:]=] },
    -- Java upper-cases a dotless "ı" to "I": "${upper:ı}" spells jndi's i (left as "ı" once folded).
    { id = 106009, score = 8, re = [=[\$\{\s{0,4}jnd(?:\xc4[\xb0\xb1]|i\xcc\x87)\s{0,4}:]=] },
    { id = 106002, score = 5, re = [=[\$\{\s{0,4}(?:env|sys|java|ctx|main|date|bundle|k8s|docker|log4j|spring|web|marker|jvmrunargs|sd|base64|upper|lower|event|map|script):[^}]{0,80}\}]=] },
    -- Java serialisation streams (hex, base64, or the gzipped base64 form).
    { id = 106003, score = 8, re = [=[\xac\xed\x00\x05|\baced0005|\bro0ab[a-z0-9+/]|\bh4sia{3}]=] },
    -- Classes of the JDK and of libraries used in deserialisation and expression-language exploits.
    { id = 106004, score = 8,
      re = [=[\bjava\.(?:lang\.(?:runtime|processbuilder|process|system|class|classloader|reflect|thread|object|string|integer|number|stringbuilder|invoke|module)|io\.(?:\w{2,40})|net\.(?:url|socket|urlclassloader|serversocket|inetaddress)|nio\.|beans\.(?:xmldecoder|expression|statement)|rmi\.|util\.(?:zip|scanner|base64|jar))|\bjavax\.(?:naming|script|management|el|xml\.transform|faces|swing|imageio)\.|\b(?:org\.apache\.(?:commons|struts2?|xalan|xbean|tomcat|catalina|naming|bcel|myfaces|wicket|shiro|log4j|velocity|batik|coyote|jasper|axis|click|cxf|ibatis|openjpa|shiro)|org\.springframework\.|com\.sun\.(?:org\.apache|jndi|rowset|corba|script)|com\.opensymphony\.xwork2|org\.omg\.corba|org\.codehaus\.groovy|org\.mozilla\.javascript|org\.hibernate\.|com\.mchange\.v2|bsh\.interpreter|freemarker\.template|ognl\.|org\.jboss\.|com\.alibaba\.fastjson|com\.fasterxml\.jackson|net\.sf\.json|org\.python\.core|weblogic\.|com\.bea\.|clojure\.)]=] },
    -- Deserialisation gadget classes and process execution by name.
    { id = 106008, score = 8, re = [=[\b(?:processbuilder|clonetransformer|invokertransformer|chainedtransformer|instantiatetransformer|constanttransformer|templatesimpl|jdbcrowsetimpl|lazymap|transformedmap|annotationinvocationhandler|badattributevalueexpexception|beancomparator|expando|xstream)\b|\bjava\.(?:runtime|processbuilder)\b]=] },
    -- Runtime.getRuntime().exec and reflection used to reach it.
    { id = 106005, score = 8, re = [=[\bgetruntime\s*\(\s*\)\s*\.\s*exec|\bprocessbuilder\s*\(|\.getclass\s*\(\s*\)\s*\.\s*(?:forname|getclassloader|getmethod|getdeclared)|\bclass\.forname\s*\(|\bclass\.(?:module\.)?classloader\b|\.newinstance\s*\(|\.getmethod\s*\(\s*['"]|\.invoke\s*\(\s*null]=] },
    -- OGNL / Struts and Spring expression injections.
    { id = 106006, score = 8, re = [=[%\{\s{0,4}[(#@]|#_memberaccess|#context\s*\[|@java\.lang\.|@ognl\.|\bt\s*\(\s*java\.|#application\s*\[|#request\s*\[|xwork\.methodaccessor|allowstaticmethodaccess|#\{\s*[^}]{0,40}\bjava\b]=] },
    -- Deserialisation type hints (Jackson, fastjson, XStream, XMLDecoder).
    { id = 106007, score = 8, re = [=["@type"\s*:\s*"[\w.$]{3,120}"|<java\s+version=|<object\s+class\s*=\s*["']java\.|<void\s+method\s*=|<(?:sorted-set|dynamic-proxy|jdk\.nashorn)\b|\["(?:com|org|java|javax|ch|sun)\.[\w.$]{3,120}",]=] },
  },
  ssti = {
    -- Arithmetic probes and object walks inside template delimiters.
    { id = 107001, score = 8, re = [=[\{\{[^{}]{0,80}(?:__class__|__mro__|__subclasses__|__globals__|__builtins__|__import__|__init__|config\.|request\.|lipsum|cycler|joiner|self\._|\.constructor|\bnamespace\b|\|attr\s*\(|range\s*\()|\{\{\s{0,4}\d{1,6}\s{0,4}[*+/-]\s{0,4}['"]?\d{1,6}['"]?\s{0,4}\}\}]=] },
    { id = 107002, score = 8, re = [=[\$\{\s{0,4}\d{1,6}\s{0,4}[*+/-]\s{0,4}\d{1,6}\s{0,4}\}|#\{\s{0,4}\d{1,6}\s{0,4}[*+/-]\s{0,4}\d{1,6}\s{0,4}\}|<%=?\s{0,4}\d{1,6}\s{0,4}[*+/-]\s{0,4}\d{1,6}\s{0,4}%>|\{\{=|\{#\s{0,4}\d|@\(\s{0,4}\d{1,6}\s{0,4}[*+]\s{0,4}\d{1,6}\s{0,4}\)|\{\d{1,6}\s{0,4}\*\s{0,4}\d{1,6}\}|\[\[\s{0,4}\d{1,6}\s{0,4}\*\s{0,4}\d{1,6}\s{0,4}\]\]]=] },
    { id = 107003, score = 8, re = [=[<#(?:assign|import|include|macro|function|if|list)\b|freemarker\.template\.utility|\?new\s*\(\s*\)|\{%\s{0,4}(?:import|include|set|for|if|extends|macro|block|raw|load|exec|debug|php)\b|\{php\}|\{\s*system\s*\(|[$#]\{\s{0,4}(?:t\s*\(|new\s|@|\w{1,20}\.(?:getclass|class|forname|runtime|exec))|#set\s*\(\s*\$|#foreach\s*\(|\$class\.inspect|\{\{[^{}]{0,60}(?:popen|system|exec|eval|subprocess|os\.|read\s*\(\))]=] },
    -- Server-side JavaScript (Node.js): modules and globals that reach the system.
    { id = 107004, score = 8, re = [=[\brequire\s*\(\s*['"`](?:child_process|fs|net|http|vm|os|process|cluster|dgram|worker_threads)['"`]|\bchild_process\b|\bprocess\s*\.\s*(?:mainmodule|binding|dlopen|env|exit|kill|cwd|chdir|setuid|getuid|spawn)|\bglobal\s*\.\s*process\b|\bconstructor\s*\.\s*constructor\s*\(|\bconstructor\s*\(\s*['"`]return|\bnew\s+function\s*\(\s*['"`]|\b(?:execsync|spawnsync|execfilesync)\s*\(|\b_\$\$nd_func\$\$_|\bprocess\.spawn\s*\(|\bthis\s*\.\s*constructor\s*\.|\bfunction\s*\(\s*\)\s*\{\s*return\s+this\s*\}|\bimport\s*\(\s*['"`](?:child_process|fs|os)]=] },
    -- Prototype pollution: __proto__ or constructor.prototype as a key or in an argument name.
    { id = 107005, score = 8, re = [=[__proto__|\bconstructor\s*(?:\.|\[\s*['"]?)\s*prototype\b|\[\s*['"]?constructor['"]?\s*\]\s*\[\s*['"]?prototype]=] },
    -- Node.js module and function constructors named in a value.
    { id = 107009, score = 5, re = [=[\bmodule\s*\.\s*exports\s*=|\bnew\s+function\s*\(|\bprocess\s*\.\s*(?:env|argv|version|platform|pid)\b|\bglobal\s*\.\s*\w{2,20}\s*=|\brequire\s*\(\s*['"`][\w./-]{1,60}['"`]\s*\)|\bprocess\s*\[\s*['"`]|\bconsole\s*\[\s*['"`]\w{2,10}['"`]\s*\]\s*\(]=] },
    { id = 107010, score = 3, re = [=[\bfunction\s*\(\s*\)\s*\{]=] },
    -- An endless loop with nothing in it (a probe that hangs an eval'd value: "while(this);").
    { id = 107014, score = 5, re = [=[\bwhile\s*\(\s*!?\s*(?:new\s+)?[\w$.]{1,30}\s*\)\s*(?:;|\{\s*\}|$)]=] },
    -- Node.js: the console called (a probe of an eval'd value: "console.log(7*7)"; not a stack
    -- trace's frame, "at console.error (https://...)", which error beacons carry), the module
    -- loader and the process object reached by index or through require's own properties.
    { id = 107011, score = 5, re = [=[(?<!\bat\s)\bconsole\s*\.\s*(?:log|info|warn|error|debug|trace|dir|table|assert)\s*(?:\.\s*(?:call|apply|bind)\s*)?\((?!\s*(?:[a-z][\w+.-]{1,20}://|<anonymous>|/))]=] },
    { id = 107012, score = 8, re = [=[\b(?:process|require)\s*\[\s*(?:['"`]|[\w$]{1,40}\.|mainmodule|binding|env\b|dlopen)|\brequire\s*\.\s*(?:main|cache)\b|\._load\s*\(|\bmainmodule\b]=] },
    -- React Server Components' reply references walking to a constructor or a prototype
    -- ("$3:constructor:constructor", "$7:Module:prototype": the Flight protocol's gadget path).
    { id = 107013, score = 8, re = [=[(?:^|["'\s:,{\[])\$[0-9a-z@]{1,8}:(?:[\w$]{1,40}:){0,3}(?:constructor|prototype|__proto__)\b]=] },
    -- Server-side JavaScript loops and sleeps used as blind probes (Node/Mongo eval).
    { id = 107006, score = 5, re = [=[\bwhile\s*\(\s*[!(+\-\s]{0,8}(?:true|false|\d{1,6}|\[\]|\{\}|""|''|``|infinity|nan)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bsettimeout\s*\(\s*function|\b__js_function\b|\b_bsontype\b|\bfunction\s*\(\s*\)\s*\{[^}]{0,60}(?:require|process|return\s+this)|\bdb\s*\.\s*[\w$]{1,40}\s*\.\s*(?:find|insert|remove|update|drop|save|aggregate|mapreduce|findone|deletemany|insertone)\s*\(|\bthis\s*\.\s*\w{1,40}\s*(?:==|!=|\.match\()|\bsleep\s*\(\s*\d{2,8}\s*\)]=] },
    -- ASP/JSP-style scriptlets running code.
    { id = 107007, score = 8, re = [=[<%\s{0,4}(?:=\s{0,4})?(?:system|exec|eval|runtime|response\.write|out\.print|request\.|process|require|import|`|@\s*page)]=] },
    -- Ruby ERB / Perl / Python template escapes with code.
    { id = 107008, score = 8, re = [=[\bprocess\.(?:spawn|exec)\b|\bkernel\.(?:spawn|exec|system|open)\b|\bio\.(?:popen|read)\b|\bopen3\b|\bsystem\s*\(\s*['"][^'"]{1,80}['"]\s*\)|`(?:id|ls|whoami|uname|cat\s)[^`]{0,60}`]=] },
  },
  ssrf = {
    -- Cloud metadata endpoints.
    { id = 108001, score = 8, re = [=[(?:^|[/@=\[])(?:169\.254\.169\.254|169\.254\.170\.2|100\.100\.100\.200|192\.0\.0\.192|fd00:ec2::254|metadata\.google\.internal|metadata\.azure\.com|metadata\.packet\.net|instance-data(?:\.ec2\.internal)?|metadata\.tencentyun\.com|169\.254\.0\.23)\b]=] },
    -- URL schemes an application fetches only to smuggle a protocol (gopher, dict, ...) as a whole
    -- value; those a settings form also holds (ldap, ssh, redis, postgres, rtsp ...) when they point
    -- at an internal host or, for LDAP and RMI, at a Java class to load (JNDI: "ldap://host/Exploit";
    -- a directory's URL has a DN or a search, "ldap://ldap.example.com/dc=example,dc=com").
    { id = 108002, score = 8, re = [=[^(?:gopher|dict|tftp|jar|netdoc|rmi|iiop|dns|fastcgi)://|^(?:ldaps?|sftp|mailto|telnet|ssh|nfs|smb|redis|mysql|postgres(?:ql)?|mongodb|memcached|zookeeper|rtsp)://(?:[^/@\s]{0,64}@)?(?:localhost|127(?:\.\d{1,3}){3}|0(?:\.0){3}|0|\[?::1?\]?|\[?0:0:0:0:0:0:0:[01]\]?|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|\d{8,10}|0x[0-9a-f]{1,8}(?:\.0x[0-9a-f]{1,2}){0,3}|0[0-7]{1,3}(?:\.[0-7]{1,4}){1,3}|\[::ffff:[0-9a-f.:]{3,40}\]|[\w.-]{0,40}\.(?:nip\.io|xip\.io|sslip\.io|localtest\.me|lvh\.me)|ip6-(?:localhost|loopback)|localhost\.localdomain)(?:[:/?#]|$)|^ldaps?://[^/?#\s]{1,255}/(?![a-z][\w.-]{0,40}=|\?|$)[^\s]]=] },
    -- URLs to loopback, private or encoded addresses.
    { id = 108003, score = 5, re = [=[^(?:https?|ftp|ws|wss):(?://)?(?:[^/@\s]{0,64}@)?(?:localhost|127(?:\.\d{1,3}){3}|0(?:\.0){3}|0|\[?::1?\]?|\[?0:0:0:0:0:0:0:[01]\]?|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|\d{8,10}|0x[0-9a-f]{1,8}(?:\.0x[0-9a-f]{1,2}){0,3}|0[0-7]{1,3}(?:\.[0-7]{1,4}){1,3}|\[::ffff:[0-9a-f.:]{3,40}\]|[\w.-]{0,40}\.(?:nip\.io|xip\.io|sslip\.io|localtest\.me|lvh\.me)|ip6-(?:localhost|loopback)|localhost\.localdomain)(?:[:/?#]|$)]=] },
    { id = 108004, score = 5, re = [=[^(?:ipv?6-(?:localhost|loopback)|localhost[46]?(?:\.localdomain[46]?)?|(?:host|gateway|kubernetes)\.(?:docker|containers)\.internal|kubernetes\.default(?:\.svc(?:\.cluster\.local)?)?|[\w-]{1,63}(?:\.[\w-]{1,63}){0,2}\.svc\.cluster\.local|(?:[\w-]{1,63}\.){0,4}(?:localtest\.me|lvh\.me|nip\.io|sslip\.io|xip\.io))(?:[:/]|$)|^\[?::1\]?(?:[:/]|$)|^data:[a-z]{2,20}/[\w.+-]{1,40}(?:[;,]|$)]=] },
  },
  -- Known CVEs' value shapes (the request-level ones are rampart.waf_cve's): OGNL expressions
  -- (Struts S2-045/S2-057, Confluence CVE-2021-26084/CVE-2022-26134) and Spring4Shell's walk to
  -- the class loader (CVE-2022-22965), as a value or an argument name.
  cve = {
    { id = 118006, score = 8, re = [=[[$%]\{\s{0,4}\(?\s{0,4}#[a-z_]|[$%]\{\s{0,4}@(?:java|ognl)\.|(?:\\u0027|')\s{0,4}\+\s{0,4}#\{|#_memberaccess|@ognl\.ognlcontext@]=] },
    { id = 118007, score = 8, re = [=[\bclass\s{0,4}(?:\.|\[\s{0,4}['"]?)\s{0,4}module\s{0,4}(?:\.|['"]?\s{0,4}\]\s{0,4}\[\s{0,4}['"]?)\s{0,4}classloader\b]=] },
  },
  xxe = {
    { id = 109001, score = 8, re = [=[<!entity\s{1,8}%?\s{0,8}[\w.-]{1,64}\s{1,8}(?:system|public)\b]=] },
    { id = 109002, score = 8, re = [=[<!doctype\s{1,8}[\w:.-]{1,64}\s{0,8}(?:\[|(?:system|public)\s)|<xi:include\b|xmlns:xi\s*=\s*["']http://www\.w3\.org/2001/xinclude]=] },
    { id = 109003, score = 5, re = [=[<!entity\b]=] },
  },
}

return _M

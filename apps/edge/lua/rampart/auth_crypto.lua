-- The cryptography of auth groups (rampart.auth) through LuaJIT's FFI into the OpenSSL libcrypto
-- that Debian's nginx is linked with (libcrypto.so.3): HMAC-SHA-256 for basic passwords and HS256,
-- EVP_DigestVerify with SHA-256 for RS256 and ES256. No Lua library of the edge's packages
-- (lua-resty-core, lua-cjson, lrucache) has these; the FFI needs nothing more installed.
local ffi = require "ffi"
local C = ffi.C

ffi.cdef [[
typedef struct evp_md_st EVP_MD;
typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct bio_st BIO;
const EVP_MD *EVP_sha256(void);
unsigned char *HMAC(const EVP_MD *evp_md, const void *key, int key_len, const unsigned char *d, size_t n,
                    unsigned char *md, unsigned int *md_len);
BIO *BIO_new_mem_buf(const void *buf, int len);
int BIO_free(BIO *a);
EVP_PKEY *PEM_read_bio_PUBKEY(BIO *bp, EVP_PKEY **x, void *cb, void *u);
void EVP_PKEY_free(EVP_PKEY *pkey);
int EVP_PKEY_get_base_id(const EVP_PKEY *pkey);
int EVP_PKEY_get_bits(const EVP_PKEY *pkey);
EVP_MD_CTX *EVP_MD_CTX_new(void);
void EVP_MD_CTX_free(EVP_MD_CTX *ctx);
int EVP_DigestVerifyInit(EVP_MD_CTX *ctx, void **pctx, const EVP_MD *type, void *e, EVP_PKEY *pkey);
int EVP_DigestVerify(EVP_MD_CTX *ctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen);
void ERR_clear_error(void);
]]

local _M = {}

local EVP_PKEY_RSA, EVP_PKEY_EC = 6, 408
local out = ffi.new("unsigned char[32]")
local out_len = ffi.new("unsigned int[1]")
local byte, char, sub, format = string.byte, string.char, string.sub, string.format

pcall(ffi.cdef, [[
const EVP_MD *EVP_md5(void);
int EVP_DigestInit_ex(EVP_MD_CTX *ctx, const EVP_MD *type, void *impl);
int EVP_DigestUpdate(EVP_MD_CTX *ctx, const void *d, size_t cnt);
int EVP_DigestFinal_ex(EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s);
]])

-- MD5 in lower-case hex of a .. the `n` bytes at `p` .. c (token auth: key, the path read in place
-- by rampart.request_url, timestamp), as ngx.md5(a .. string .. c) answers, without making the
-- joined string; nil if libcrypto fails. One context per worker, used only here (nothing yields).
local md5_ctx
function _M.md5_hex(a, p, n, c)
  if md5_ctx == nil then md5_ctx = C.EVP_MD_CTX_new() end
  if C.EVP_DigestInit_ex(md5_ctx, C.EVP_md5(), nil) ~= 1 or C.EVP_DigestUpdate(md5_ctx, a, #a) ~= 1
    or C.EVP_DigestUpdate(md5_ctx, p, n) ~= 1 or C.EVP_DigestUpdate(md5_ctx, c, #c) ~= 1
    or C.EVP_DigestFinal_ex(md5_ctx, out, out_len) ~= 1 then
    C.ERR_clear_error()
    return nil
  end
  return _M.hex(ffi.string(out, out_len[0]))
end

function _M.hmac_sha256(key, data)
  if C.HMAC(C.EVP_sha256(), key, #key, data, #data, out, out_len) == nil then return nil end
  return ffi.string(out, out_len[0])
end

-- Equal strings in a time that depends on their length only.
function _M.equal(a, b)
  if #a ~= #b then return false end
  local diff = 0
  for i = 1, #a do diff = bit.bor(diff, bit.bxor(byte(a, i), byte(b, i))) end
  return diff == 0
end

function _M.from_hex(hex)
  return (hex:gsub("%x%x", function(pair) return char(tonumber(pair, 16)) end))
end

-- A PEM public key → EVP_PKEY (freed with the Lua object), or nil when it does not parse or its
-- type does not fit `alg` (RS256: RSA of 2048 bits or more; ES256: EC; the curve is checked by
-- the control plane, and a signature of another curve does not verify as 64 bytes).
function _M.public_key(pem, alg)
  local bio = C.BIO_new_mem_buf(pem, #pem)
  if bio == nil then return nil end
  local key = C.PEM_read_bio_PUBKEY(bio, nil, nil, nil)
  C.BIO_free(bio)
  if key == nil then C.ERR_clear_error(); return nil end
  key = ffi.gc(key, C.EVP_PKEY_free)
  local id = C.EVP_PKEY_get_base_id(key)
  if alg == "RS256" and (id ~= EVP_PKEY_RSA or C.EVP_PKEY_get_bits(key) < 2048) then return nil end
  if alg == "ES256" and id ~= EVP_PKEY_EC then return nil end
  return key
end

-- One DER INTEGER from 32 big-endian bytes (leading zeros dropped, a zero added before a high bit).
local function der_int(bytes)
  local i = 1
  while i < #bytes and byte(bytes, i) == 0 do i = i + 1 end
  bytes = sub(bytes, i)
  if byte(bytes, 1) >= 0x80 then bytes = "\0" .. bytes end
  return "\2" .. char(#bytes) .. bytes
end

-- A JWS ES256 signature (r || s, 64 bytes) as the DER OpenSSL verifies.
local function es256_der(sig)
  if #sig ~= 64 then return nil end
  local body = der_int(sub(sig, 1, 32)) .. der_int(sub(sig, 33, 64))
  return "\48" .. char(#body) .. body
end

-- Whether `sig` is the key's SHA-256 signature of `data` (RSASSA-PKCS1-v1_5 or ECDSA).
function _M.verify(key, alg, data, sig)
  if alg == "ES256" then
    sig = es256_der(sig)
    if sig == nil then return false end
  end
  local ctx = C.EVP_MD_CTX_new()
  if ctx == nil then return false end
  local ok = C.EVP_DigestVerifyInit(ctx, nil, C.EVP_sha256(), nil, key) == 1
    and C.EVP_DigestVerify(ctx, sig, #sig, data, #data) == 1
  C.EVP_MD_CTX_free(ctx)
  C.ERR_clear_error()
  return ok
end

_M.hex = function(s) return (s:gsub(".", function(c) return format("%02x", byte(c)) end)) end

return _M

// SHA-256 and HMAC-SHA256 from @noble/hashes, an audited library installed from the registry by
// manage.sh (pinned by package-lock.json) into static/vendor/. Not WebCrypto: its subtle API exists
// only on https or localhost, and phones reach the table's server over plain http on the LAN.
import { hmac } from '../vendor/noble-hashes/hmac.js';
import { sha256 } from '../vendor/noble-hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '../vendor/noble-hashes/utils.js';

export { bytesToHex, hexToBytes, sha256 };
export const utf8 = utf8ToBytes;
export const hmacSha256 = (key, message) => hmac(sha256, key, message);

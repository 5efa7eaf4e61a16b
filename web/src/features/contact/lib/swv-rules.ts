// The contact form's validation in the browser, from the schema the server publishes
// for each form (contact-forms/{id}/feedback/schema): rules in order, each naming a
// field and the message shown when the field breaks it. The server checks the same
// rules again on receipt (crates/rules/src/contact/) and its verdict is the one that
// counts; both copies are held to tests/vectors/contact-form-rules.json.
//
// Values are read as the form sends them, trimmed and with blank ones left out, so
// every rule but required and requiredfile passes a field left empty.

/** A file as the rules see it; a browser's File is one. */
export interface FileLike {
  name: string;
  size: number;
  type: string;
}

/** What a form sent: a browser's FormData, or any list of name and value pairs. */
export type FormEntries = Iterable<readonly [string, string | FileLike]>;

/** A rule's setting as the schema writes it: a number or a string ("400", "2024-06-01"). */
export type Param = string | number;

interface RuleBase {
  field?: string;
  error?: string;
}

export type SwvRule =
  | (RuleBase & { rule: 'required' | 'requiredfile' | 'email' | 'url' | 'tel' | 'number' | 'date' | 'time' })
  | (RuleBase & { rule: 'file' | 'enum' | 'dayofweek'; accept?: Param[] })
  | (RuleBase & {
      rule: 'minitems' | 'maxitems' | 'minlength' | 'maxlength' | 'minnumber' | 'maxnumber' | 'mindate' | 'maxdate' | 'minfilesize' | 'maxfilesize';
      threshold?: Param;
    })
  | (RuleBase & { rule: 'stepnumber'; base?: Param; interval?: Param })
  | (RuleBase & { rule: 'all' | 'any'; rules?: SwvRule[] });

export interface SwvSchema {
  version?: string;
  locale?: string;
  rules: SwvRule[];
}

/** A field that broke a rule, and the message to show by it. */
export interface InvalidField {
  field: string;
  message: string;
}

/** The schemes a url may have: the original's allowed protocols. */
export const URL_SCHEMES = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp',
  'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

/** The schemes whose urls name a host; the others only need something after the colon. */
const HOST_SCHEMES = ['http', 'https', 'ftp', 'ftps'];

const TEL_MIN_LENGTH = 6;
const TEL_MAX_LENGTH = 15;
const EMAIL_MIN_LENGTH = 6;

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Characters as the form counts them (UTF-16 code units), a CRLF line break once. */
const codeUnits = (text: string) => text.length - (text.match(/\r\n/g)?.length ?? 0);

export const required = (values: string[]) => values.length > 0;

export const requiredFile = (files: FileLike[]) => files.length > 0;

/**
 * An address as the original's is_email reads one: at least six characters, one @ not
 * at the start; before it letters, digits and !#$%&'*+/=?^_`{|}~.-; after it two or
 * more labels joined by dots, each of letters, digits and hyphens, neither end a hyphen.
 */
export function isEmail(text: string): boolean {
  if (text.length < EMAIL_MIN_LENGTH) return false;
  const at = text.indexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  const labels = text.slice(at + 1).split('.');
  return /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local) && labels.length >= 2 && labels.every(isDomainLabel);
}

/** An empty label is what a leading, trailing or doubled dot leaves. */
const isDomainLabel = (label: string) => /^[a-zA-Z0-9-]+$/.test(label) && !label.startsWith('-') && !label.endsWith('-');

/**
 * An absolute url with one of the allowed schemes (in any case) and no whitespace;
 * something must follow the scheme, and for the web and file-transfer schemes that
 * something starts with a host.
 */
export function isUrl(text: string): boolean {
  const colon = text.indexOf(':');
  if (colon < 0) return false;
  const scheme = asciiLower(text.slice(0, colon));
  if (!URL_SCHEMES.includes(scheme) || /\s/.test(text)) return false;
  const rest = text.slice(colon + 1).replace(/^\/+/, '');
  if (HOST_SCHEMES.includes(scheme)) return (rest.split(/[/?#]/)[0] ?? '') !== '';
  return rest !== '';
}

/**
 * A telephone number: an extension after # or * is dropped, then the separators
 * (spaces, hyphens, dots, slashes, parentheses); an international prefix, + or 00,
 * becomes a single + (zeros after it dropped). What is left is digits with that
 * optional +, 6 to 15 characters in all.
 */
export function isTel(text: string): boolean {
  let cleaned = (text.split(/[#*]/)[0] ?? '').replace(/[()/.\-\s]/g, '');
  if (cleaned.startsWith('+') || cleaned.startsWith('00')) cleaned = `+${cleaned.replace(/^[+0]+/, '')}`;
  return /^\+?[0-9]+$/.test(cleaned) && cleaned.length >= TEL_MIN_LENGTH && cleaned.length <= TEL_MAX_LENGTH;
}

interface NumberText {
  negative: boolean;
  whole: string;
  fraction: string;
  exponent: string;
}

/** The parts of a number as written: -? then digits with an optional fraction, then an optional exponent. */
function numberText(text: string): NumberText | null {
  const match = /^(-?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = ''] = match;
  if (whole === '' && fraction === '') return null;
  return { negative: sign === '-', whole, fraction, exponent };
}

/** A number written in integer, decimal or exponent form: 42, -7, 1.5, -.5, 1., 1e5. No leading +. */
export const isNumber = (text: string) => numberText(text) !== null;

const parseNumber = (text: string): number | null => (isNumber(text) ? Number(text) : null);

/** A real calendar date written YYYY-MM-DD (years 0001 to 9999, as a date input sends them). */
function parseDate(text: string): [number, number, number] | null {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const real = year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
  return real ? [year, month, day] : null;
}

export const isDate = (text: string) => parseDate(text) !== null;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Monday 1 to Sunday 7, from the days since 1970-01-01 (a Thursday). */
function weekday([year, month, day]: [number, number, number]): number {
  // Days from the civil date, counting years from March so February comes last.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146097 + dayOfEra - 719468;
  return (((days + 3) % 7) + 7) % 7 + 1;
}

/** HH:MM or HH:MM:SS, hours 00 to 23, minutes and seconds 00 to 59. */
export function isTime(text: string): boolean {
  const parts = text.split(':');
  if (parts.length < 2 || parts.length > 3 || !parts.every((part) => /^[0-9]{2}$/.test(part))) return false;
  const [hours = 0, minutes = 0, seconds = 0] = parts.map(Number);
  return hours <= 23 && minutes <= 59 && seconds <= 59;
}

/**
 * Every file's extension is one of those accepted: named as such (.pdf) or through a
 * media type (application/pdf, audio/*). The name decides, not the type the browser
 * declares, which is its own guess from the name.
 */
export function file(files: FileLike[], accept: string[]): boolean {
  const accepted = accept.flatMap(extensions);
  return files.every(({ name }) => {
    const dot = name.lastIndexOf('.');
    return dot >= 0 && accepted.includes(asciiLower(name.slice(dot)));
  });
}

/** Every value is one of those accepted (a line break sent as CRLF is LF). */
export function oneOf(values: string[], accept: string[]): boolean {
  const lf = (text: string) => text.replace(/\r\n/g, '\n');
  const accepted = accept.map(lf);
  return values.every((value) => accepted.includes(lf(value)));
}

/** Every date falls on an accepted day, Monday 1 to Sunday 7; a value that is not a date is left to the date rule. */
export function dayOfWeek(values: string[], accept: number[]): boolean {
  return values.every((value) => {
    const date = parseDate(value);
    return date === null || accept.includes(weekday(date));
  });
}

export const minItems = (values: string[], threshold: number) => values.length === 0 || values.length >= threshold;
export const maxItems = (values: string[], threshold: number) => values.length <= threshold;

const totalLength = (values: string[]) => values.reduce((total, value) => total + codeUnits(value), 0);

/** At least threshold characters over all values; a field left empty passes. */
export const minLength = (values: string[], threshold: number) => values.length === 0 || totalLength(values) >= threshold;
export const maxLength = (values: string[], threshold: number) => totalLength(values) <= threshold;

/** Values that are not numbers are left to the number rule. */
const numbers = (values: string[]) => values.map(parseNumber).filter((n): n is number => n !== null);
export const minNumber = (values: string[], threshold: number) => numbers(values).every((n) => n >= threshold);
export const maxNumber = (values: string[], threshold: number) => numbers(values).every((n) => n <= threshold);

/** Values that are not dates are left to the date rule; YYYY-MM-DD compares as text. */
const dates = (values: string[]) => values.filter(isDate);
export const minDate = (values: string[], threshold: string) => dates(values).every((date) => date >= threshold);
export const maxDate = (values: string[], threshold: string) => dates(values).every((date) => date <= threshold);

const totalSize = (files: FileLike[]) => files.reduce((total, f) => total + f.size, 0);

/** The files together weigh at least threshold bytes; no file passes. */
export const minFileSize = (files: FileLike[], threshold: number) => files.length === 0 || totalSize(files) >= threshold;
export const maxFileSize = (files: FileLike[], threshold: number) => totalSize(files) <= threshold;

/**
 * Every number is base plus a whole number of intervals (an interval that is not a
 * positive number allows any). Worked out on the decimals as written, so base 0.1 and
 * interval 0.2 allow 0.5; a value that is not a number is left to the number rule.
 */
export function stepNumber(values: string[], base: string, interval: string): boolean {
  const step = parseNumber(interval);
  if (step === null || !(step > 0)) return true;
  const from = isNumber(base) ? base : '0';
  return values.filter(isNumber).every((value) => onStep(value, from, interval));
}

// The exact reading keeps to what a signed 128-bit integer holds, as the server's
// does, so both fall back to the same approximate check for the same numbers.
const I128_MAX = (1n << 127n) - 1n;
const I128_MIN = -(1n << 127n);
const MAX_EXPONENT_DIGITS = 9;
const MAX_SCALE = 38;

interface Decimal {
  digits: bigint;
  exponent: number;
}

/** A number as written, digits × 10^exponent, exactly, when its digits fit. */
function parseDecimal(text: string): Decimal | null {
  const parts = numberText(text);
  if (!parts) return null;
  let digits = 0n;
  for (const char of parts.whole + parts.fraction) {
    digits = digits * 10n + BigInt(Number(char));
    if (digits > I128_MAX) return null;
  }
  const negativeExponent = parts.exponent.startsWith('-');
  const exponentDigits = parts.exponent.replace(/^[+-]/, '').replace(/^0+/, '');
  if (exponentDigits.length > MAX_EXPONENT_DIGITS) return null;
  const written = exponentDigits === '' ? 0 : Number(exponentDigits);
  return { digits: parts.negative ? -digits : digits, exponent: (negativeExponent ? -written : written) - parts.fraction.length };
}

const fits = (n: bigint) => n >= I128_MIN && n <= I128_MAX;

/** d's digits as a count of 10^exponent (an exponent at or below its own). */
function scaled(d: Decimal, exponent: number): bigint | null {
  const shift = d.exponent - exponent;
  if (shift > MAX_SCALE) return null;
  const n = d.digits * 10n ** BigInt(shift);
  return fits(n) ? n : null;
}

/** The step checked on whole numbers of the smallest decimal place the three use; null when they do not fit. */
function exactlyOnStep(value: string, base: string, interval: string): boolean | null {
  const [v, b, i] = [parseDecimal(value), parseDecimal(base), parseDecimal(interval)];
  if (!v || !b || !i) return null;
  const unit = Math.min(v.exponent, b.exponent, i.exponent);
  const [sv, sb, step] = [scaled(v, unit), scaled(b, unit), scaled(i, unit)];
  if (sv === null || sb === null || step === null || step <= 0n) return null;
  const offset = sv - sb;
  if (!fits(offset)) return null;
  return offset % step === 0n;
}

/** For numbers too long to work out exactly: within a millionth of a step, as the original allows. */
function nearlyOnStep(value: number, base: number, interval: number): boolean {
  const tolerance = 5e-7;
  const remainder = Math.abs((value - base) % interval);
  return remainder < tolerance || Math.abs(interval - remainder) < tolerance;
}

function onStep(value: string, base: string, interval: string): boolean {
  const exact = exactlyOnStep(value, base, interval);
  if (exact !== null) return exact;
  const read = (text: string) => parseNumber(text) ?? 0;
  return nearlyOnStep(read(value), read(base), read(interval));
}

/**
 * A url the visitor typed without a scheme but with a dot gets http:// in front
 * (leading slashes dropped), as the form does before it checks the field; anything
 * else comes back trimmed.
 */
export function normalizeUrl(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || /^[a-z][a-z0-9.+-]*:/i.test(trimmed) || !trimmed.includes('.')) return trimmed;
  return `http://${trimmed.replace(/^\/+/, '')}`;
}

/**
 * The extensions an accept entry stands for, each with its dot and in lower case: the
 * entry itself when it is one (.pdf), those of a media type or of a whole family of
 * them (image/*), none for anything else.
 */
function extensions(entry: string): string[] {
  const lower = asciiLower(entry);
  if (lower.startsWith('.')) return /^\.[a-z0-9]+$/.test(lower) ? [lower] : [];
  const match = /^([a-z]+)\/(\*|[a-z0-9.+-]+)$/.exec(lower);
  if (!match) return [];
  const [, family, subtype] = match;
  return MEDIA_TYPES.filter(([type]) => type === lower || (subtype === '*' && type.startsWith(`${family}/`))).flatMap(([, exts]) =>
    exts.map((ext) => `.${ext}`),
  );
}

/** The media types the shop knows by extension (those a WordPress site knows). */
const MEDIA_TYPES: [string, string[]][] = [
  ['application/java', ['class']],
  ['application/javascript', ['js']],
  ['application/msword', ['doc']],
  ['application/octet-stream', ['psd', 'xcf']],
  ['application/onenote', ['onetoc', 'onetoc2', 'onetmp', 'onepkg']],
  ['application/oxps', ['oxps']],
  ['application/pdf', ['pdf']],
  ['application/rar', ['rar']],
  ['application/rtf', ['rtf']],
  ['application/ttaf+xml', ['dfxp']],
  ['application/vnd.apple.keynote', ['key']],
  ['application/vnd.apple.numbers', ['numbers']],
  ['application/vnd.apple.pages', ['pages']],
  ['application/vnd.ms-access', ['mdb']],
  ['application/vnd.ms-excel', ['xla', 'xls', 'xlt', 'xlw']],
  ['application/vnd.ms-powerpoint', ['pot', 'pps', 'ppt']],
  ['application/vnd.ms-project', ['mpp']],
  ['application/vnd.ms-write', ['wri']],
  ['application/vnd.ms-xpsdocument', ['xps']],
  ['application/vnd.oasis.opendocument.chart', ['odc']],
  ['application/vnd.oasis.opendocument.database', ['odb']],
  ['application/vnd.oasis.opendocument.formula', ['odf']],
  ['application/vnd.oasis.opendocument.graphics', ['odg']],
  ['application/vnd.oasis.opendocument.presentation', ['odp']],
  ['application/vnd.oasis.opendocument.spreadsheet', ['ods']],
  ['application/vnd.oasis.opendocument.text', ['odt']],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', ['pptx']],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ['xlsx']],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', ['docx']],
  ['application/wordperfect', ['wp', 'wpd']],
  ['application/x-7z-compressed', ['7z']],
  ['application/x-gzip', ['gz', 'gzip']],
  ['application/x-tar', ['tar']],
  ['application/zip', ['zip']],
  ['audio/3gpp', ['3gp', '3gpp']],
  ['audio/3gpp2', ['3g2', '3gp2']],
  ['audio/aac', ['aac']],
  ['audio/flac', ['flac']],
  ['audio/midi', ['mid', 'midi']],
  ['audio/mpeg', ['mp3', 'm4a', 'm4b']],
  ['audio/ogg', ['ogg', 'oga']],
  ['audio/wav', ['wav']],
  ['audio/x-matroska', ['mka']],
  ['audio/x-ms-wax', ['wax']],
  ['audio/x-ms-wma', ['wma']],
  ['audio/x-realaudio', ['ra', 'ram']],
  ['image/avif', ['avif']],
  ['image/bmp', ['bmp']],
  ['image/gif', ['gif']],
  ['image/heic', ['heic']],
  ['image/heif', ['heic', 'heif']],
  ['image/jpeg', ['jpg', 'jpeg', 'jpe']],
  ['image/png', ['png']],
  ['image/tiff', ['tiff', 'tif']],
  ['image/webp', ['webp']],
  ['image/x-icon', ['ico']],
  ['text/calendar', ['ics']],
  ['text/css', ['css']],
  ['text/csv', ['csv']],
  ['text/html', ['htm', 'html']],
  ['text/plain', ['txt', 'asc', 'c', 'cc', 'h', 'srt']],
  ['text/richtext', ['rtx']],
  ['text/tab-separated-values', ['tsv']],
  ['text/vtt', ['vtt']],
  ['video/3gpp', ['3gp', '3gpp']],
  ['video/3gpp2', ['3g2', '3gp2']],
  ['video/avi', ['avi']],
  ['video/divx', ['divx']],
  ['video/mp4', ['mp4', 'm4v']],
  ['video/mpeg', ['mpeg', 'mpg', 'mpe']],
  ['video/ogg', ['ogv']],
  ['video/quicktime', ['mov', 'qt']],
  ['video/webm', ['webm']],
  ['video/x-flv', ['flv']],
  ['video/x-matroska', ['mkv']],
  ['video/x-ms-asf', ['asf', 'asx']],
  ['video/x-ms-wmv', ['wmv']],
];

/** A form's values and files by field, as the rules read them. */
interface FieldValues {
  values(field: string): string[];
  files(field: string): FileLike[];
}

/** A name with brackets (menu[], as checkbox groups and multiple selects send theirs) is the field before them. */
const fieldOf = (name: string) => name.split('[')[0] ?? name;

/** A file input left empty is sent as a part with no name and no bytes: no file. */
const isChosen = (file: FileLike) => file.name.trim() !== '' || file.size > 0;

function readForm(entries: FormEntries): FieldValues {
  const values = new Map<string, string[]>();
  const files = new Map<string, FileLike[]>();
  const add = <T>(map: Map<string, T[]>, name: string, item: T) => map.set(fieldOf(name), [...(map.get(fieldOf(name)) ?? []), item]);
  for (const [name, value] of entries) {
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== '') add(values, name, trimmed);
    } else if (isChosen(value)) {
      add(files, name, value);
    }
  }
  return { values: (field) => values.get(field) ?? [], files: (field) => files.get(field) ?? [] };
}

const paramText = (param: Param | undefined) => (param === undefined ? '' : String(param));
const paramNumber = (param: Param | undefined) => parseNumber(paramText(param));
/** A count (characters, items, bytes): a number with any fraction dropped. */
const paramCount = (param: Param | undefined) => {
  const n = paramNumber(param);
  return n === null ? null : Math.trunc(n);
};

interface Broken {
  field: string;
  message: string;
}

/** The field a failure of the rule is shown on: a group's own, or its first rule's. */
function fieldOfRule(rule: SwvRule): string {
  if (rule.rule === 'all' || rule.rule === 'any') return rule.field || (rule.rules?.[0] ? fieldOfRule(rule.rules[0]) : '');
  return rule.field ?? '';
}

/** Whether a single (not group) rule holds; a rule the shop does not know does. */
function holds(rule: SwvRule, form: FieldValues): boolean {
  const field = rule.field ?? '';
  const values = form.values(field);
  const files = form.files(field);
  const withCount = (threshold: Param | undefined, check: (t: number) => boolean) => {
    const t = paramCount(threshold);
    return t === null || check(t);
  };
  const withNumber = (threshold: Param | undefined, check: (t: number) => boolean) => {
    const t = paramNumber(threshold);
    return t === null || check(t);
  };
  const withDate = (threshold: Param | undefined, check: (t: string) => boolean) => {
    const t = paramText(threshold);
    return !isDate(t) || check(t);
  };
  switch (rule.rule) {
    case 'required': return required(values);
    case 'requiredfile': return requiredFile(files);
    case 'email': return values.every(isEmail);
    case 'url': return values.every(isUrl);
    case 'tel': return values.every(isTel);
    case 'number': return values.every(isNumber);
    case 'date': return values.every(isDate);
    case 'time': return values.every(isTime);
    case 'file': return file(files, (rule.accept ?? []).map(paramText));
    case 'enum': return oneOf(values, (rule.accept ?? []).map(paramText));
    case 'dayofweek': {
      const days = (rule.accept ?? []).map(paramCount).filter((day): day is number => day !== null && day >= 1 && day <= 7);
      return dayOfWeek(values, days);
    }
    case 'minitems': return withCount(rule.threshold, (t) => minItems(values, t));
    case 'maxitems': return withCount(rule.threshold, (t) => maxItems(values, t));
    case 'minlength': return withCount(rule.threshold, (t) => minLength(values, t));
    case 'maxlength': return withCount(rule.threshold, (t) => maxLength(values, t));
    case 'minnumber': return withNumber(rule.threshold, (t) => minNumber(values, t));
    case 'maxnumber': return withNumber(rule.threshold, (t) => maxNumber(values, t));
    case 'mindate': return withDate(rule.threshold, (t) => minDate(values, t));
    case 'maxdate': return withDate(rule.threshold, (t) => maxDate(values, t));
    case 'minfilesize': return withCount(rule.threshold, (t) => minFileSize(files, t));
    case 'maxfilesize': return withCount(rule.threshold, (t) => maxFileSize(files, t));
    case 'stepnumber': return stepNumber(values, rule.base === undefined ? '0' : paramText(rule.base), paramText(rule.interval));
    default: return true;
  }
}

/**
 * Checks one rule. A group fails with its own message (or, for all without one, that
 * of the rule that failed), on its own field or else on the field of the rule that
 * failed (all) or of its first rule (any). An empty group has nothing to fail.
 */
function check(rule: SwvRule, form: FieldValues): Broken | null {
  if (rule.rule === 'all') {
    for (const inner of rule.rules ?? []) {
      const broken = check(inner, form);
      if (broken) return { field: rule.field || broken.field, message: rule.error || broken.message };
    }
    return null;
  }
  if (rule.rule === 'any') {
    const rules = rule.rules ?? [];
    if (rules.length === 0 || rules.some((inner) => check(inner, form) === null)) return null;
    return { field: fieldOfRule(rule), message: rule.error ?? '' };
  }
  return holds(rule, form) ? null : { field: fieldOfRule(rule), message: rule.error ?? '' };
}

/**
 * Checks a form against every rule of the schema, in order. Each field that breaks a
 * rule is listed once, with the message of the first rule it breaks, in the order the
 * schema reaches them; an empty list means the form may be sent.
 */
export function validate(schema: SwvSchema, entries: FormEntries): InvalidField[] {
  const form = readForm(entries);
  const invalid: InvalidField[] = [];
  for (const rule of schema.rules) {
    const broken = check(rule, form);
    if (broken && !invalid.some((known) => known.field === broken.field)) invalid.push(broken);
  }
  return invalid;
}

/** The fields a rule reads, those inside a group included. */
export function fieldsOf(rule: SwvRule): string[] {
  const own = rule.field ? [rule.field] : [];
  const inner = rule.rule === 'all' || rule.rule === 'any' ? (rule.rules ?? []).flatMap(fieldsOf) : [];
  return [...new Set([...own, ...inner])];
}

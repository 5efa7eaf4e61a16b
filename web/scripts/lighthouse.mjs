#!/usr/bin/env node
// Lighthouse over the demo shop: starts the server given by FERROSHOP_BIN (as the
// browser tests do: a free loopback port, a fresh demo catalogue in a temporary
// directory), then audits five pages — home, shop, the first product, the cart and
// the checkout (those two with one product in the cart) — on Lighthouse's mobile
// form factor with its default simulated throttling. Prints a table and exits with
// 1 when any page misses a budget below, naming the figure and the failing audits.
//
//   FERROSHOP_BIN     the server binary (required; `make test-lighthouse` passes the
//                     tests' debug build: what Lighthouse weighs is the browser's work)
//   CHROMIUM_PATH     Chromium or Chrome (default /usr/bin/chromium)
//   LIGHTHOUSE_RUNS   runs per page; each figure's median counts, and the run
//                     nearest the median explains a failure (default 1)
//   LIGHTHOUSE_PAGES  a comma-separated subset of the pages' names (default: all)
//
// The HTML and JSON reports go to a temporary directory, printed at the start and end.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { chromium } from 'playwright-core';
import { startServer } from '../e2e/support/server.mjs';

const STORE_API = '/wp-json/wc/store/v1';

const BUDGET = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  lcpMs: 1500, // fails at or above
  // Lighthouse's own line between good and needs-improvement on a phone: blocking time
  // is the figure a shared two-core machine makes noisiest (the same page measured
  // 15 ms and 280 ms minutes apart), and the performance score above holds it too.
  tbtMs: 200, // fails at or above
  cls: 0.02, // fails at or above
};

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CATEGORY_LABEL = { performance: 'performance', accessibility: 'accessibility', 'best-practices': 'best practices', seo: 'SEO' };

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const runs = Number.parseInt(process.env.LIGHTHOUSE_RUNS || '1', 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`LIGHTHOUSE_RUNS must be a whole number of at least 1, not ${JSON.stringify(process.env.LIGHTHOUSE_RUNS)}.`);
  process.exit(2);
}

async function getJson(baseURL, pathAndQuery) {
  const res = await fetch(new URL(pathAndQuery, baseURL));
  if (!res.ok) throw new Error(`GET ${pathAndQuery} answered ${res.status}`);
  return res.json();
}

/** A page's path (and query) from an absolute or relative permalink. */
function pathOf(permalink, baseURL) {
  const url = new URL(permalink, baseURL);
  return `${url.pathname}${url.search}`;
}

/**
 * Puts one product in a new cart through the shop's add-to-cart call and returns the
 * cookies the server set for it, ready for Playwright's `addCookies`.
 */
async function cartCookies(baseURL, productId) {
  const res = await fetch(new URL('/?wc-ajax=add_to_cart', baseURL), {
    method: 'POST',
    body: new URLSearchParams({ product_id: String(productId), quantity: '1' }),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || body.error) {
    throw new Error(`Adding product ${productId} to a cart failed: ${res.status} ${JSON.stringify(body)?.slice(0, 300)}`);
  }
  const cookies = res.headers.getSetCookie().map((header) => {
    const [pair, ...attributes] = header.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const flags = attributes.map((a) => a.toLowerCase());
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      url: baseURL,
      httpOnly: flags.includes('httponly'),
      sameSite: 'Lax',
    };
  });
  if (cookies.length === 0) throw new Error('The add-to-cart call set no cookie, so the cart cannot be carried into the browser.');
  return cookies;
}

/** Sets cookies in the launched Chromium's default profile (Lighthouse keeps cookies between its resets). */
async function setBrowserCookies(port, cookies) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    await browser.contexts()[0].addCookies(cookies);
  } finally {
    // Disconnects only: the browser and its default profile stay.
    await browser.close();
  }
}

function slug(name) {
  return name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase();
}

async function auditOnce(page, url, reportDir, runIndex, server) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    if (page.withCart) await setBrowserCookies(chrome.port, await cartCookies(server.baseURL, page.withCart));
    const result = await lighthouse(url, {
      port: chrome.port,
      output: ['html', 'json'],
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      formFactor: 'mobile',
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const stem = runs > 1 ? `${slug(page.name)}-run${runIndex + 1}` : slug(page.name);
    writeFileSync(path.join(reportDir, `${stem}.report.html`), result.report[0]);
    writeFileSync(path.join(reportDir, `${stem}.report.json`), result.report[1]);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

const score = (lhr, id) => {
  const value = lhr.categories[id]?.score;
  return typeof value === 'number' ? Math.round(value * 100) : null;
};
const metric = (lhr, id) => lhr.audits[id]?.numericValue ?? null;

/** One run's figures. */
function figuresOf(lhr) {
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    'best-practices': score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    lcpMs: metric(lhr, 'largest-contentful-paint'),
    tbtMs: metric(lhr, 'total-blocking-time'),
    cls: metric(lhr, 'cumulative-layout-shift'),
  };
}

/** Each figure's median over the runs (a run on a busy machine is noisy, figure by figure). */
function medianFigures(lhrs) {
  const all = lhrs.map(figuresOf);
  const median = (values) => {
    const known = values.filter((v) => v !== null).sort((a, b) => a - b);
    return known.length ? known[Math.floor((known.length - 1) / 2)] : null;
  };
  return Object.fromEntries(Object.keys(all[0]).map((key) => [key, median(all.map((f) => f[key]))]));
}

/** The figures a page is judged by (each the median over its runs), and which missed the budget. */
function judge(lhr, lhrs = [lhr]) {
  const figures = medianFigures(lhrs);
  const failures = [];
  for (const id of CATEGORIES) {
    if (figures[id] === null) failures.push(`${CATEGORY_LABEL[id]}: no score (the category could not be measured)`);
    else if (figures[id] < BUDGET[id]) failures.push(`${CATEGORY_LABEL[id]} ${figures[id]} < ${BUDGET[id]}`);
  }
  const limits = [
    ['lcpMs', 'LCP', (v) => `${Math.round(v)} ms`, `${BUDGET.lcpMs} ms`],
    ['tbtMs', 'TBT', (v) => `${Math.round(v)} ms`, `${BUDGET.tbtMs} ms`],
    ['cls', 'CLS', (v) => v.toFixed(3), String(BUDGET.cls)],
  ];
  for (const [key, label, show, limit] of limits) {
    if (figures[key] === null) failures.push(`${label}: not measured`);
    else if (figures[key] >= BUDGET[key]) failures.push(`${label} ${show(figures[key])} >= ${limit}`);
  }
  if (lhr.runtimeError) failures.push(`Lighthouse runtime error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  return { figures, failures };
}

/** Audits that lost points in accessibility, best practices and SEO, with a few of the elements they name. */
function failingAudits(lhr) {
  const lines = [];
  for (const id of ['accessibility', 'best-practices', 'seo']) {
    const category = lhr.categories[id];
    if (!category) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (['notApplicable', 'informative', 'manual'].includes(audit.scoreDisplayMode)) continue;
      const where = (audit.details?.items ?? [])
        .slice(0, 3)
        .map((item) => item.node?.selector || item.source?.url || item.url || item.description || '')
        .filter(Boolean)
        .map((text) => String(text).slice(0, 120));
      lines.push(`    ${CATEGORY_LABEL[id]} · ${audit.id}: ${audit.title}${ref.weight === 0 ? ' (weight 0)' : ''}${where.length ? `\n        at ${where.join(' | ')}` : ''}`);
    }
  }
  return lines;
}

/**
 * For a page that missed a speed budget: the LCP element, the elements that shifted
 * most, and the opportunities with the largest estimated savings.
 */
function performanceHints(lhr) {
  const lines = [];
  const lcp = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
  if (lcp) lines.push(`    LCP element: ${lcp.selector}`);
  const shifts = (lhr.audits['layout-shifts']?.details?.items ?? [])
    .filter((item) => item.node)
    .slice(0, 3)
    .map((item) => `${item.node.selector} (${item.score.toFixed(3)})`);
  if (shifts.length) lines.push(`    layout shifts: ${shifts.join(' | ')}`);
  const opportunities = Object.values(lhr.audits)
    .filter((audit) => audit.details?.type === 'opportunity' && (audit.details.overallSavingsMs ?? 0) > 0)
    .sort((a, b) => b.details.overallSavingsMs - a.details.overallSavingsMs)
    .slice(0, 4)
    .map((audit) => `    performance · ${audit.id}: ${audit.title} (est. ${Math.round(audit.details.overallSavingsMs)} ms)`);
  return [...lines, ...opportunities];
}

function table(rows) {
  const header = ['page', 'performance', 'accessibility', 'best practices', 'SEO', 'LCP ms', 'TBT ms', 'CLS'];
  const body = rows.map(({ name, figures: f }) => [
    name,
    f.performance ?? '–',
    f.accessibility ?? '–',
    f['best-practices'] ?? '–',
    f.seo ?? '–',
    f.lcpMs === null ? '–' : Math.round(f.lcpMs),
    f.tbtMs === null ? '–' : Math.round(f.tbtMs),
    f.cls === null ? '–' : f.cls.toFixed(3),
  ].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main() {
  const reportDir = mkdtempSync(path.join(tmpdir(), 'ferroshop-lighthouse-'));
  console.log(`Lighthouse reports: ${reportDir}`);
  const server = await startServer();
  try {
    const [first] = await getJson(server.baseURL, `${STORE_API}/products?per_page=1`);
    if (!first) throw new Error('The demo catalogue has no products.');
    // The cart needs a product that can be added as it is (not a variable product).
    const all = await getJson(server.baseURL, `${STORE_API}/products?per_page=100`);
    const simple = all.find((p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock);
    if (!simple) throw new Error('The demo catalogue has no simple product in stock to put in the cart.');

    const pages = [
      { name: 'home', path: '/' },
      { name: 'shop', path: '/shop/' },
      { name: 'product', path: pathOf(first.permalink, server.baseURL) },
      { name: 'cart', path: '/cart/', withCart: simple.id },
      { name: 'checkout', path: '/checkout/', withCart: simple.id },
    ];

    const only = process.env.LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
    const rows = [];
    for (const page of pages.filter((p) => !only || only.includes(p.name))) {
      const url = new URL(page.path, server.baseURL).href;
      process.stdout.write(`${page.name.padEnd(9)} ${page.path}${page.withCart ? ' (1 item in the cart)' : ''} … `);
      const lhrs = [];
      for (let i = 0; i < runs; i += 1) lhrs.push(await auditOnce(page, url, reportDir, i, server));
      const lhr = runs > 1 ? computeMedianRun(lhrs) : lhrs[0];
      const verdict = judge(lhr, lhrs);
      console.log(verdict.failures.length ? 'FAIL' : 'ok');
      rows.push({ ...page, lhr, ...verdict });
    }

    console.log(`\nLighthouse ${rows[0].lhr.lighthouseVersion}, mobile, simulated throttling${runs > 1 ? `, median of ${runs} runs` : ''}\n`);
    console.log(table(rows));
    console.log(
      `\nBudget: performance >= ${BUDGET.performance}, accessibility >= ${BUDGET.accessibility}, best practices >= ${BUDGET['best-practices']}, ` +
        `SEO >= ${BUDGET.seo}, LCP < ${BUDGET.lcpMs} ms, TBT < ${BUDGET.tbtMs} ms, CLS < ${BUDGET.cls}`,
    );

    const failed = rows.filter((row) => row.failures.length);
    for (const row of failed) {
      console.log(`\n${row.name} (${row.path}) failed: ${row.failures.join('; ')}`);
      const speed = row.failures.some((f) => /^(performance|LCP|TBT|CLS)/.test(f));
      for (const line of [...failingAudits(row.lhr), ...(speed ? performanceHints(row.lhr) : [])]) console.log(line);
    }
    console.log(`\nReports (HTML and JSON): ${reportDir}`);
    if (failed.length) {
      console.log(`${failed.length} of ${rows.length} pages missed the budget.`);
      process.exitCode = 1;
    } else {
      console.log(`All ${rows.length} pages are within the budget.`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});

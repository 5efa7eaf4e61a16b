#!/usr/bin/env python3
"""Builds crates/rules/data/address-locale.json, the per-country address rules the
server and the storefront share, from a recorded checkout page of the original shop.

Usage:
    scripts/address-data.py PAGE [OUT]

PAGE is a saved HTTP response of the original shop's checkout page (status line,
headers, blank line, HTML), for instance a `page_checkout.http` recorded from a
WooCommerce 7.9 shop. OUT defaults to crates/rules/data/address-locale.json next
to this script's repository.

What it reads from the page:
  * the country list: the <option>s of the #billing_country select, in page order;
  * wc_country_select_params.countries: country -> {state code: name}, or [] when the
    country has no states (countries missing from the map take free-text states);
  * wc_address_i18n_params: the default address fields, the per-country overrides and
    the "required"/"optional" label texts;
  * the rendered billing form, for the phone and email fields only the billing form has.

To refresh the data, record the checkout page of an up-to-date original shop selling to
all countries and run this again; review the diff of the JSON before keeping it.
"""

import html
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

ADDRESS_FIELDS = [
    "first_name",
    "last_name",
    "company",
    "country",
    "address_1",
    "address_2",
    "city",
    "state",
    "postcode",
]
BILLING_ONLY_FIELDS = ["phone", "email"]
# Form-row classes that say how the page's script validates a field, not how it looks.
BEHAVIOUR_CLASSES = re.compile(r"^(form-row|validate-.*|woocommerce-(in)?validated)$")


def fail(message):
    sys.exit(f"address-data.py: {message}")


def http_body(raw):
    """The body of a saved HTTP response, de-chunked if it was saved chunked."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        head, sep, body = raw.partition(b"\n\n")
    if not sep:
        fail("the page file has no blank line between headers and body")
    chunked = re.search(rb"(?im)^transfer-encoding:\s*chunked\s*$", head)
    if chunked and re.match(rb"[0-9a-fA-F]+\r?\n", body):
        out = bytearray()
        while True:
            line, _, body = body.partition(b"\n")
            size = int(line.strip().split(b";")[0], 16)
            if size == 0:
                break
            out += body[:size]
            body = body[size:].lstrip(b"\r\n")
        body = bytes(out)
    return body.decode("utf-8")


def script_var(page, name):
    """The object literal assigned to `var NAME = {...};` in an inline script."""
    match = re.search(r"var " + re.escape(name) + r" = (\{.*?\});\s*\n", page)
    if not match:
        fail(f"no `var {name}` in the page")
    return json.loads(match.group(1))


def nested_json(params, key, name):
    """The shop sends some values as JSON inside a JSON string."""
    if key not in params:
        fail(f"{name} has no `{key}`")
    value = params[key]
    return json.loads(value) if isinstance(value, str) else value


def country_options(page):
    select = re.search(r'<select[^>]*\bid="billing_country"[^>]*>(.*?)</select>', page, re.S)
    if not select:
        fail("no #billing_country select in the page")
    options = re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', select.group(1), re.S)
    countries = [[code, html.unescape(name).strip()] for code, name in options if code]
    if not countries:
        fail("the #billing_country select has no countries")
    return countries


class FormRows(HTMLParser):
    """Collects each `<p class="form-row" id="KEY_field">` of the page with its label,
    input and classes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows = {}
        self.row = None
        self.in_label = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "p" and (attrs.get("id") or "").endswith("_field"):
            self.row = {
                "id": attrs["id"][: -len("_field")],
                "classes": (attrs.get("class") or "").split(),
                "priority": attrs.get("data-priority"),
                "label": "",
                "required": False,
                "input": None,
            }
            self.rows[self.row["id"]] = self.row
        elif self.row is None:
            return
        elif tag == "label":
            self.in_label = True
        elif tag == "abbr" and "required" in (attrs.get("class") or "").split():
            self.row["required"] = True
        elif tag in ("input", "select", "textarea") and self.row["input"] is None:
            self.row["input"] = attrs

    def handle_endtag(self, tag):
        if tag == "label":
            self.in_label = False
        elif tag == "p":
            self.row = None

    def handle_data(self, data):
        if self.row is not None and self.in_label:
            self.row["label"] += data


def rendered_field(rows, field_id):
    row = rows.get(field_id)
    if row is None or row["input"] is None:
        fail(f"no rendered #{field_id}_field in the page")
    # The label text ends with "&nbsp;*" or "&nbsp;(optional)"; keep what comes before.
    label = row["label"].split("\u00a0")[0].strip()
    rule = {
        "label": label,
        "required": row["required"],
        "type": row["input"].get("type") or "text",
        "class": [c for c in row["classes"] if not BEHAVIOUR_CLASSES.match(c)],
        "validate": [
            c[len("validate-"):]
            for c in row["classes"]
            if c.startswith("validate-") and c != "validate-required"
        ],
        "autocomplete": row["input"].get("autocomplete") or "",
        "priority": int(row["priority"]),
    }
    if row["input"].get("placeholder"):
        rule["placeholder"] = row["input"]["placeholder"]
    return rule


def build(page):
    countries = country_options(page)
    codes = {code for code, _ in countries}

    select_params = script_var(page, "wc_country_select_params")
    states = nested_json(select_params, "countries", "wc_country_select_params")

    i18n_params = script_var(page, "wc_address_i18n_params")
    locale = nested_json(i18n_params, "locale", "wc_address_i18n_params")
    default = locale.pop("default", None)
    if default is None:
        fail("wc_address_i18n_params.locale has no `default`")
    missing = [f for f in ADDRESS_FIELDS if f not in default]
    if missing:
        fail(f"the default address fields lack {missing}")

    for name, table in (("states", states), ("locale", locale)):
        unknown = sorted(set(table) - codes)
        if unknown:
            fail(f"{name} names countries the country list does not have: {unknown}")

    parser = FormRows()
    parser.feed(page)
    billing_fields = {key: rendered_field(parser.rows, "billing_" + key) for key in BILLING_ONLY_FIELDS}

    return {
        "_generated": "by scripts/address-data.py from the original shop's checkout page; do not edit by hand",
        "countries": countries,
        "states": states,
        "default": {key: default[key] for key in default},
        "billing_fields": billing_fields,
        "locale": locale,
        "i18n_required_text": i18n_params.get("i18n_required_text", "required"),
        "i18n_optional_text": i18n_params.get("i18n_optional_text", "optional"),
    }


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    page = http_body(Path(argv[1]).read_bytes())
    out = Path(argv[2]) if len(argv) == 3 else (
        Path(__file__).resolve().parent.parent / "crates/rules/data/address-locale.json"
    )
    data = build(page)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    with_states = sum(1 for v in data["states"].values() if v)
    print(
        f"{out}: {len(data['countries'])} countries, {with_states} with state lists, "
        f"{sum(1 for v in data['states'].values() if not v)} without states, "
        f"{len(data['locale'])} with locale overrides"
    )


if __name__ == "__main__":
    main(sys.argv)

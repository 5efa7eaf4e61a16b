#!/usr/bin/env python3
"""Writes a realistic catalogue in the original shop's product CSV, for timing
`ferroshop products import|export` at scale.

    python3 bench/scale/make-catalog.py 100000 > /tmp/catalog.csv

The count is rows (products plus variations). The same count always gives the same
file: mostly simple products, some variable products each followed by its
variations, categories as paths, brands, tags, global attributes, prices (some on
sale, some with sale dates), stock levels. Standard library only.
"""

import csv
import random
import sys

COLUMNS = [
    "ID", "Type", "SKU", "GTIN, UPC, EAN, or ISBN", "Name", "Published", "Is featured?",
    "Visibility in catalog", "Short description", "Description", "Date sale price starts",
    "Date sale price ends", "Tax status", "Tax class", "In stock?", "Stock",
    "Low stock amount", "Backorders allowed?", "Sold individually?", "Weight (kg)",
    "Length (cm)", "Width (cm)", "Height (cm)", "Allow customer reviews?", "Purchase note",
    "Sale price", "Regular price", "Categories", "Tags", "Shipping class", "Images",
    "Download limit", "Download expiry days", "Parent", "Grouped products", "Upsells",
    "Cross-sells", "External URL", "Button text", "Position", "Brands",
]
ATTRIBUTE_COLUMNS = 2
for n in range(1, ATTRIBUTE_COLUMNS + 1):
    COLUMNS += [f"Attribute {n} name", f"Attribute {n} value(s)", f"Attribute {n} visible",
                f"Attribute {n} global", f"Attribute {n} default"]

DEPARTMENTS = {
    "Clothing": ["Hoodies", "T-shirts", "Jackets", "Socks", "Hats"],
    "Home": ["Kitchen", "Decor", "Lighting", "Bedding"],
    "Outdoor": ["Camping", "Cycling", "Running"],
    "Electronics": ["Audio", "Cables", "Chargers"],
    "Toys": ["Puzzles", "Board games"],
}
ADJECTIVES = ["Classic", "Cosy", "Sturdy", "Light", "Bright", "Compact", "Deluxe", "Urban",
              "Alpine", "Coastal", "Midnight", "Everyday", "Vintage", "Modern", "Rugged"]
NOUNS = ["Hoodie", "Tee", "Jacket", "Mug", "Lamp", "Tent", "Bottle", "Speaker", "Cable",
         "Puzzle", "Blanket", "Cap", "Backpack", "Pan", "Charger", "Sock", "Helmet"]
BRANDS = ["Northwind", "Lumen", "Boreal", "Fjord", "Kestrel", "Ridge", "Saltmarsh", "Tandem"]
TAGS = ["new", "sale", "gift", "eco", "bestseller", "limited", "bundle", "winter", "summer"]
COLORS = ["Red", "Blue", "Green", "Black", "White", "Grey", "Navy", "Teal"]
SIZES = ["XS", "S", "M", "L", "XL"]


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}"


def row(**values):
    out = dict.fromkeys(COLUMNS, "")
    out.update(values)
    return [out[c] for c in COLUMNS]


def main():
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rng = random.Random(20240501)
    paths = [f"{d} > {s}" for d, subs in DEPARTMENTS.items() for s in subs]
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(COLUMNS)
    written = 0
    n = 0
    while written < total:
        n += 1
        sku = f"SKU-{n:06d}"
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {n}"
        common = {
            "SKU": sku,
            "Name": name,
            "Published": "1" if rng.random() < 0.97 else "-1",
            "Is featured?": "1" if rng.random() < 0.03 else "0",
            "Visibility in catalog": "visible",
            "Short description": f"<p>The {name.lower()}.</p>",
            "Description": f"<p>All about the {name.lower()}.</p>\\n<p>Made to last.</p>",
            "Tax status": "taxable",
            "Allow customer reviews?": "1",
            "Categories": ", ".join(rng.sample(paths, rng.choice([1, 1, 2]))),
            "Tags": ", ".join(rng.sample(TAGS, rng.randint(0, 3))),
            "Brands": rng.choice(BRANDS),
            "Weight (kg)": f"{rng.randint(50, 5000) / 1000:g}",
            "Length (cm)": str(rng.randint(5, 80)),
            "Width (cm)": str(rng.randint(5, 60)),
            "Height (cm)": f"{rng.randint(10, 400) / 10:g}",
            "Position": "0",
        }
        variable = rng.random() < 0.08 and written + 4 <= total
        if not variable:
            price = rng.randint(300, 25000)
            values = dict(common)
            values.update({
                "ID": "",
                "Type": "simple, virtual" if rng.random() < 0.02 else "simple",
                "Regular price": money(price),
                "Backorders allowed?": "0",
                "Sold individually?": "0",
            })
            if rng.random() < 0.15:
                values["Sale price"] = money(price * rng.choice([70, 80, 90]) // 100)
                if rng.random() < 0.3:
                    values["Date sale price starts"] = "2026-01-01 0:00:00"
                    values["Date sale price ends"] = "2026-12-31 23:59:59"
            if rng.random() < 0.6:
                stock = rng.randint(0, 500)
                values["Stock"] = str(stock)
                values["In stock?"] = "1" if stock > 0 else "0"
                values["Low stock amount"] = "5" if rng.random() < 0.2 else ""
            else:
                values["In stock?"] = "1"
            if rng.random() < 0.4:
                values["Attribute 1 name"] = "Color"
                values["Attribute 1 value(s)"] = rng.choice(COLORS)
                values["Attribute 1 visible"] = "1"
                values["Attribute 1 global"] = "1"
            if n > 10 and rng.random() < 0.2:
                values["Upsells"] = f"SKU-{rng.randint(1, n - 1):06d}"
            writer.writerow(row(**values))
            written += 1
            continue
        colors = rng.sample(COLORS, rng.randint(2, 3))
        sizes = rng.sample(SIZES, rng.randint(1, 3))
        combos = [(c, s) for c in colors for s in sizes][: max(1, total - written - 1)]
        parent = dict(common)
        parent.update({
            "Type": "variable",
            "In stock?": "1",
            "Backorders allowed?": "0",
            "Sold individually?": "0",
            "Attribute 1 name": "Color",
            "Attribute 1 value(s)": ", ".join(colors),
            "Attribute 1 visible": "1",
            "Attribute 1 global": "1",
            "Attribute 1 default": colors[0],
            "Attribute 2 name": "Size",
            "Attribute 2 value(s)": ", ".join(sizes),
            "Attribute 2 visible": "1",
            "Attribute 2 global": "1",
        })
        writer.writerow(row(**parent))
        written += 1
        base = rng.randint(1500, 12000)
        for i, (color, size) in enumerate(combos):
            stock = rng.randint(0, 60)
            values = {
                "Type": "variation",
                "SKU": f"{sku}-{i + 1}",
                "Name": f"{name} - {color}, {size}",
                "Published": "1",
                "Tax status": "taxable",
                "In stock?": "1" if stock else "0",
                "Stock": str(stock),
                "Backorders allowed?": "0",
                "Sold individually?": "0",
                "Allow customer reviews?": "0",
                "Regular price": money(base + 100 * i),
                "Sale price": money(base * 9 // 10) if rng.random() < 0.1 else "",
                "Parent": sku,
                "Position": str(i + 1),
                "Attribute 1 name": "Color",
                "Attribute 1 value(s)": color,
                "Attribute 1 global": "1",
                "Attribute 2 name": "Size",
                "Attribute 2 value(s)": size,
                "Attribute 2 global": "1",
            }
            writer.writerow(row(**values))
            written += 1


if __name__ == "__main__":
    main()

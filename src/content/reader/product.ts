/** Structured product data: JSON-LD, then microdata, then OpenGraph. Malformed data is ignored. */
import type { Product } from '../../shared/page-snapshot';

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return str(v[0]);
  if (v && typeof v === 'object') return str((v as Json).name ?? (v as Json)['@id'] ?? (v as Json).url);
  return undefined;
};

const shortAvailability = (v: string | undefined) => v?.replace(/^https?:\/\/schema\.org\//i, '');

function isProductType(t: unknown): boolean {
  const types = Array.isArray(t) ? t : [t];
  return types.some((x) => typeof x === 'string' && /(^|\/)(Product|ProductGroup|IndividualProduct)$/i.test(x));
}

function findProduct(node: unknown, depth = 0): Json | undefined {
  if (!node || typeof node !== 'object' || depth > 6) return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const hit = findProduct(item, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  const obj = node as Json;
  if (isProductType(obj['@type'])) return obj;
  for (const key of ['@graph', 'mainEntity', 'itemListElement', 'item']) {
    const hit = findProduct(obj[key], depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

function fromJsonLd(doc: Document): Product | undefined {
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue;
    }
    const p = findProduct(data);
    if (!p) continue;
    const offers = (Array.isArray(p.offers) ? p.offers[0] : p.offers) as Json | undefined;
    const rating = p.aggregateRating as Json | undefined;
    return {
      name: str(p.name),
      price: str(offers?.price ?? offers?.lowPrice ?? (offers?.priceSpecification as Json | undefined)?.price),
      currency: str(offers?.priceCurrency ?? (offers?.priceSpecification as Json | undefined)?.priceCurrency),
      availability: shortAvailability(str(offers?.availability)),
      rating: str(rating?.ratingValue),
      reviewCount: str(rating?.reviewCount ?? rating?.ratingCount),
      brand: str(p.brand),
      sku: str(p.sku),
      image: str(p.image),
      source: 'json-ld',
    };
  }
  return undefined;
}

function itemprop(scope: Element, name: string): string | undefined {
  const el = scope.querySelector(`[itemprop="${name}"]`);
  if (!el) return undefined;
  return (el.getAttribute('content') ?? el.getAttribute('href') ?? el.getAttribute('src') ?? el.textContent ?? '').trim() || undefined;
}

function fromMicrodata(doc: Document): Product | undefined {
  const scope = doc.querySelector('[itemscope][itemtype*="schema.org/Product" i]');
  if (!scope) return undefined;
  return {
    name: itemprop(scope, 'name'),
    price: itemprop(scope, 'price') ?? itemprop(scope, 'lowPrice'),
    currency: itemprop(scope, 'priceCurrency'),
    availability: shortAvailability(itemprop(scope, 'availability')),
    rating: itemprop(scope, 'ratingValue'),
    reviewCount: itemprop(scope, 'reviewCount') ?? itemprop(scope, 'ratingCount'),
    brand: itemprop(scope, 'brand'),
    sku: itemprop(scope, 'sku'),
    image: itemprop(scope, 'image'),
    source: 'microdata',
  };
}

function meta(doc: Document, property: string): string | undefined {
  return doc.querySelector(`meta[property="${property}"], meta[name="${property}"]`)?.getAttribute('content')?.trim() || undefined;
}

function fromOpenGraph(doc: Document): Product | undefined {
  const type = meta(doc, 'og:type');
  const price = meta(doc, 'product:price:amount') ?? meta(doc, 'og:price:amount');
  if (!/product/i.test(type ?? '') && !price) return undefined;
  return {
    name: meta(doc, 'og:title'),
    price,
    currency: meta(doc, 'product:price:currency') ?? meta(doc, 'og:price:currency'),
    availability: meta(doc, 'product:availability') ?? meta(doc, 'og:availability'),
    brand: meta(doc, 'product:brand'),
    image: meta(doc, 'og:image'),
    source: 'opengraph',
  };
}

const clean = (p: Product): Product => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as Product;

export function readProduct(doc: Document): Product | undefined {
  const product = fromJsonLd(doc) ?? fromMicrodata(doc) ?? fromOpenGraph(doc);
  return product && (product.name || product.price) ? clean(product) : undefined;
}

// Brave-shaped objects for the fake's answers (specs/brave/defs.json): generated results for any
// query, and builders for the ones a test stages.

const meta = (url: string) => {
  const u = new URL(url);
  return {
    scheme: u.protocol.replace(':', ''),
    netloc: u.host,
    hostname: u.hostname,
    favicon: '',
    path: u.pathname,
  };
};

/** A web SearchResult. */
export function webResult(title: string, url: string, description: string, age = '3 days ago') {
  return {
    type: 'search_result',
    subtype: 'generic',
    title,
    url,
    description,
    is_source_local: false,
    is_source_both: false,
    page_age: '2026-11-29T10:00:00',
    family_friendly: true,
    meta_url: meta(url),
    age,
    language: 'en',
  };
}

/** A NewsResult. */
export function newsResult(title: string, url: string, description: string, source = 'Example News') {
  return {
    type: 'news_result',
    title,
    url,
    description,
    age: '2 hours ago',
    meta_url: meta(url),
    source,
    breaking: false,
  };
}

/** A VideoResult. */
export function videoResult(title: string, url: string, description: string) {
  return {
    type: 'video_result',
    title,
    url,
    description,
    age: '1 week ago',
    meta_url: meta(url),
    video: { duration: '12:34', creator: 'Example Channel', publisher: 'ExampleTube' },
  };
}

/** An ImageResult. */
export function imageResult(title: string, url: string, image: string) {
  return {
    type: 'image_result',
    title,
    url,
    source: new URL(url).hostname,
    thumbnail: { src: `${image}?thumb` },
    properties: { url: image, placeholder: `${image}?ph` },
    meta_url: meta(url),
    confidence: 'high',
  };
}

/** A location as a web answer's `locations.results[]` carries it (with the id for local/*). */
export function locationRef(id: string, title: string) {
  return { type: 'location_result', id, title, coordinates: [40.7681, -73.9819] };
}

/** A POI as local/pois answers it. */
export function poi(id: string, title: string, street: string, phone: string, rating: number) {
  return {
    type: 'location_result',
    id,
    title,
    url: `https://places.example/${encodeURIComponent(id)}`,
    provider_url: `https://places.example/${encodeURIComponent(id)}`,
    postal_address: {
      type: 'PostalAddress',
      streetAddress: street,
      addressLocality: 'New York',
      addressRegion: 'NY',
      postalCode: '10019',
      country: 'US',
      displayAddress: `${street}, New York, NY 10019`,
    },
    contact: { telephone: phone },
    rating: { ratingValue: rating, bestRating: 5, reviewCount: 120 },
    price_range: '$$',
    opening_hours: {
      current_day: [{ abbr_name: 'Tue', full_name: 'Tuesday', opens: '11:00', closes: '23:00' }],
    },
  };
}

/** `n` generated web results for `query` (host example.com, one path per result). */
export function generatedWeb(query: string, n: number) {
  const slug = encodeURIComponent(query.replace(/\s+/g, '-'));
  return Array.from({ length: n }, (_, i) =>
    webResult(
      `Result ${i + 1} for ${query}`,
      `https://example.com/${slug}/${i + 1}`,
      `A page about <strong>${query}</strong>, number ${i + 1}.`,
    ),
  );
}

/** Generated news, videos and images for `query`. */
export function generatedNews(query: string, n: number) {
  return Array.from({ length: n }, (_, i) =>
    newsResult(
      `News ${i + 1} on ${query}`,
      `https://news.example/${i + 1}`,
      `Story ${i + 1} about ${query}.`,
    ),
  );
}
export function generatedVideos(query: string, n: number) {
  return Array.from({ length: n }, (_, i) =>
    videoResult(
      `Video ${i + 1} on ${query}`,
      `https://videos.example/${i + 1}`,
      `Clip ${i + 1} about ${query}.`,
    ),
  );
}
export function generatedImages(query: string, n: number) {
  return Array.from({ length: n }, (_, i) =>
    imageResult(
      `Image ${i + 1} of ${query}`,
      `https://pics.example/page/${i + 1}`,
      `https://pics.example/img/${i + 1}.jpg`,
    ),
  );
}

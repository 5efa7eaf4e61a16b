// The share buttons of a list, built from its address as the original builds them
// (`http_build_query` on each site's share address).

export interface ShareLink {
  name: 'facebook' | 'twitter' | 'pinterest' | 'email' | 'whatsapp';
  label: string;
  href: string;
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

export function shareLinks(url: string, image?: string | null): ShareLink[] {
  return [
    { name: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?${query({ u: url })}` },
    { name: 'twitter', label: 'Twitter', href: `https://twitter.com/share?${query({ url })}` },
    {
      name: 'pinterest',
      label: 'Pinterest',
      href: `https://pinterest.com/pin/create/button/?${query(image ? { url, media: image } : { url })}`,
    },
    { name: 'email', label: 'Email', href: `mailto:?${query({ body: url }).replace(/\+/g, '%20')}` },
    { name: 'whatsapp', label: 'WhatsApp', href: `https://api.whatsapp.com/send?${query({ text: url })}` },
  ];
}

/** The product's own name; the whitelabel appName setting (a later issue) overrides it where shown. */
export const PRODUCT_NAME = 'ZapDesk';

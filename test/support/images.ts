/** Small real images for tests: a 1×1 PNG and a 1×1 JPEG, as base64 and as bytes. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
export const JPEG_BASE64 =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';
export const PNG_BYTES = Buffer.from(PNG_BASE64, 'base64');
export const JPEG_BYTES = Buffer.from(JPEG_BASE64, 'base64');

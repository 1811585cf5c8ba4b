/**
 * Flow images are recompressed before upload at quality 0.7 (administration §5, §9; decisions D175), in the
 * browser: the image is drawn on a canvas and encoded again as JPEG. Only JPEG files: the quality applies to
 * a lossy encoding, and a PNG (lossless, maybe transparent) stays the file the admin chose. The smaller of
 * the two is kept. A failure rejects (the editor shows 'erro' and uploads nothing).
 */
export const IMAGE_QUALITY = 0.7;

const isJpeg = (file: File): boolean => /^image\/jpe?g$/i.test(file.type) || /\.jpe?g$/i.test(file.name);

export const recompressImage = async (file: File): Promise<File> => {
  if (!isJpeg(file)) return file;
  const bitmap = await createImageBitmap(file);
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas to recompress the image');
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', IMAGE_QUALITY));
  if (!blob) throw new Error('the image could not be encoded');
  return blob.size < file.size
    ? new File([blob], file.name, { type: 'image/jpeg', lastModified: file.lastModified })
    : file;
};

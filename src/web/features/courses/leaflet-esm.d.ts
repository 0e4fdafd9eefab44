// Leaflet's ES module build (its package.json names only the UMD one): the same API as @types/leaflet describes.
declare module "leaflet/dist/leaflet-src.esm.js" {
  export * from "leaflet";
}

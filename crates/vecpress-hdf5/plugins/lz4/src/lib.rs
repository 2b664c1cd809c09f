//! The HDF5 plugin library of vecpress's LZ4 (filter 32004): HDF5 loads
//! `libvecpress_h5lz4.so` from `HDF5_PLUGIN_PATH`. Everything is in
//! [`vecpress_hdf5`]; this crate only exports its entry points (HDF5 takes
//! one filter from each plugin library).

vecpress_hdf5::plugin!(Lz4);

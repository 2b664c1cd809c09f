//! The HDF5 plugin library of vecpress's Blosc (filter 32001): HDF5 loads
//! `libvecpress_h5blosc.so` from `HDF5_PLUGIN_PATH`. Everything is in
//! [`vecpress_hdf5`]; this crate only exports its entry points (HDF5 takes
//! one filter from each plugin library).

vecpress_hdf5::plugin!(Blosc);

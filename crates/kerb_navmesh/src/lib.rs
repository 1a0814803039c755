//! kerb_navmesh

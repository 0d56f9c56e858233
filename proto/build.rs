//! Compiles quire/v1/*.proto into OUT_DIR, plus a descriptor set for server reflection.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    let protos = [
        "quire/v1/account_service.proto",
        "quire/v1/file.proto",
        "quire/v1/file_service.proto",
        "quire/v1/process_service.proto",
        "quire/v1/resumable_upload_service.proto",
        "quire/v1/share_service.proto",
        "quire/v1/support_service.proto",
        "quire/v1/tool_service.proto",
    ];
    for proto in protos {
        println!("cargo:rerun-if-changed={proto}");
    }
    tonic_prost_build::configure()
        .file_descriptor_set_path(out_dir.join("quire_descriptor.bin"))
        // `bytes` fields stay `Bytes` end to end so chunks are never copied.
        .bytes(".")
        .compile_protos(&protos, &["."])?;
    Ok(())
}

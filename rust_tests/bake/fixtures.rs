//! Grown rigs shared by the bake and measure tests (grown once per process).

use std::sync::OnceLock;

use caudal::bake::find_chains;
use caudal::chain::{grow_chains, ChainParams};
use caudal::gltf_io::GltfModel;
use caudal::spring::TailChain;
use caudal::Rig;

use crate::common;

pub struct Grown {
    pub model: GltfModel,
    pub rig: Rig,
    pub chains: Vec<TailChain>,
}

fn grow(model: GltfModel) -> Grown {
    let (rig, _) = grow_chains(model.rig().unwrap(), &ChainParams::default())
        .unwrap_or_else(|e| panic!("{}: {e}", model.label));
    let chains = find_chains(&rig).unwrap_or_else(|e| panic!("{}: {e}", model.label));
    Grown { model, rig, chains }
}

macro_rules! grown {
    ($name:ident, $load:expr) => {
        pub fn $name() -> &'static Grown {
            static CELL: OnceLock<Grown> = OnceLock::new();
            CELL.get_or_init(|| grow($load))
        }
    };
}

grown!(demo, caudal::demo::creature());
grown!(fox, common::load("fox/Fox_notail.glb"));
grown!(wolf, common::load("quaternius_wolf/Wolf_notail.glb"));
grown!(shiba, common::load("quaternius_shiba_inu/ShibaInu_notail.glb"));
grown!(alpaca, common::load("quaternius_alpaca/Alpaca_notail.glb"));

pub fn animals() -> Vec<&'static Grown> {
    vec![demo(), fox(), wolf(), shiba(), alpaca()]
}
